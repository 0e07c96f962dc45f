/** The request as the audit log records it for a session operation: method, path, query and body. */
import type { Context } from "hono";

export function requestLine(c: Context, body?: unknown): string {
  const url = new URL(c.req.url);
  return `${c.req.method} ${url.pathname}${url.search}${body === undefined ? "" : ` ${JSON.stringify(body)}`}`;
}
