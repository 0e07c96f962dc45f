/** The Identity page and its link/unlink forms (the admin guard has checked the CSRF token). */

import { type Context, Hono } from "hono";
import type { DomainError } from "../../domain/kernel/result";
import { PRIVATE_BY_ORIGIN_RULE } from "../../domain/memory/origin";
import type { SessionOperation } from "../../domain/sessions/session-operation";
import { requestLine } from "../admin-input/request-line";
import type { AppEnv } from "../app-env";
import type { PendingForget } from "./forget-person-panel";
import { IdentityPage } from "./identity-page";
import { pageContext } from "./page-context";
import { render } from "./page-render";

const field = (v: unknown) => (typeof v === "string" ? v.trim() : "");
const said = (e: DomainError) => (e.kind === "invalid" ? `${e.field} ${e.reason}` : e.kind);
const run = (c: Context<AppEnv>, op: SessionOperation, body?: unknown) =>
  c.get("services").sessions.run(op, requestLine(c, body));

async function identityPage(
  c: Context<AppEnv>,
  extra: {
    notice?: string;
    error?: string;
    typed?: { account: string; person: string };
    forget?: PendingForget;
  } = {},
) {
  const identity = c.get("services").identity;
  const [overview, reports] = await Promise.all([identity.overview(), identity.readers()]);
  return render(
    c,
    "/admin/identity",
    "Identity",
    <IdentityPage overview={overview} reports={reports} csrf={(await pageContext(c)).csrf} {...extra} />,
    extra.error ? 400 : 200,
  );
}

export const identityPageRoutes = new Hono<AppEnv>()
  .get("/", (c) => identityPage(c, c.req.query("notice") ? { notice: c.req.query("notice") as string } : {}))
  .post("/link", async (c) => {
    const form = await c.req.parseBody();
    const typed = { account: field(form.account), person: field(form.person) };
    if (!typed.account || !typed.person)
      return identityPage(c, { error: "account and person are required", typed });
    const linked = await c.get("services").identity.link(typed.account, typed.person);
    if (!linked.ok) return identityPage(c, { error: said(linked.error), typed });
    // What the link does not open: a person's private-chat items stay in their private chats.
    const notice = `Linked ${linked.value.account} to ${linked.value.personId}. ${PRIVATE_BY_ORIGIN_RULE}`;
    return c.redirect(`/admin/identity?notice=${encodeURIComponent(notice)}`, 303);
  })
  .post("/unlink", async (c) => {
    const form = await c.req.parseBody();
    const unlinked = await c.get("services").identity.unlink(field(form.account));
    if (!unlinked.ok) return identityPage(c, { error: said(unlinked.error) });
    const notice = `Unlinked ${unlinked.value.account}.`;
    return c.redirect(`/admin/identity?notice=${encodeURIComponent(notice)}`, 303);
  })
  /** Forget a person, step one: what would be removed, counted; nothing is removed. */
  .get("/forget", async (c) => {
    const person = field(c.req.query("person"));
    if (!person) return identityPage(c, { error: "person is required" });
    const answer = await run(c, { op: "forget-person-preview", person });
    if (!answer.ok) return identityPage(c, { error: answer.text });
    return identityPage(c, { forget: { person, preview: answer.data.preview as PendingForget["preview"] } });
  })
  /** Step two: removes it when the person id is typed again; the notice says what went. */
  .post("/forget", async (c) => {
    const form = await c.req.parseBody();
    const person = field(form.person);
    const confirm = field(form.confirm);
    if (!person) return identityPage(c, { error: "person is required" });
    const answer = await run(
      c,
      { op: "forget-person", person, yes: confirm === person },
      { person, confirm },
    );
    if (answer.ok) return c.redirect(`/admin/identity?notice=${encodeURIComponent(answer.text)}`, 303);
    if (answer.error.kind === "invalid" && answer.error.field === "yes") {
      // Not confirmed: the confirm step again, with the counts as they are now.
      const again = await run(c, { op: "forget-person-preview", person });
      if (again.ok)
        return identityPage(c, {
          error: `Nothing was removed: type ${person} to confirm.`,
          forget: { person, preview: again.data.preview as PendingForget["preview"] },
        });
    }
    return identityPage(c, { error: answer.text });
  });
