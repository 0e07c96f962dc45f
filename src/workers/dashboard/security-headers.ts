/**
 * The dashboard's response headers (Hono's secure-headers middleware): a Content-Security-
 * Policy under which the pages run only the dashboard's own script files and stylesheet —
 * no inline script without this response's nonce, no inline style, no style attribute — and
 * may not be framed by anyone (`frame-ancestors 'none'`, and X-Frame-Options for browsers
 * that predate it). Forms post only to the dashboard itself. An inline script a page needs
 * carries `nonce={c.get("secureHeadersNonce")}`; tests/workers/dashboard/security-headers.test.ts
 * and the browser tests fail on any inline script, style or handler the policy would block.
 */
import { NONCE, secureHeaders } from "hono/secure-headers";

export const dashboardSecurityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'", NONCE],
    styleSrc: ["'self'"],
    imgSrc: ["'self'"],
    connectSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
  },
  xFrameOptions: "DENY",
  // The login refuses a form whose Origin is not the dashboard's; `no-referrer` (the default
  // here) makes browsers send `Origin: null` with every form, so same-origin keeps it.
  referrerPolicy: "same-origin",
});
