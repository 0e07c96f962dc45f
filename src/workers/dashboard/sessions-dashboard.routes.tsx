/**
 * The Sessions page's routes under /admin/sessions. Every change goes through the same
 * sessions service as the admin API (validation, confirmation, audit with the acting admin),
 * and answers with the page again or a redirect carrying a notice.
 */
import { type Context, Hono } from "hono";
import { privateChatsReadBy } from "../../domain/sessions/cluster-exposure";
import type { SessionOperation } from "../../domain/sessions/session-operation";
import { requestLine } from "../admin-input/request-line";
import type { AppEnv } from "../app-env";
import { BackfillPanel } from "./backfill-panel";
import { pageContext } from "./page-context";
import { render } from "./page-render";
import { type PendingLink, SessionsPage } from "./sessions-page";

const LIMIT = 500;

async function page(
  c: Context<AppEnv>,
  extra: { notice?: string; error?: string; pending?: PendingLink } = {},
  status: 200 | 400 = 200,
) {
  const services = c.get("services");
  const [sessions, backfill] = await Promise.all([
    services.sessions.list(LIMIT),
    services.backfill.overview(),
  ]);
  const exposures = sessions.flatMap((s) => privateChatsReadBy(s, sessions));
  const names = new Map(
    sessions.flatMap((s) => ((s.alias ?? s.title) ? [[s.chatKey, s.alias ?? s.title ?? ""]] : [])),
  );
  const context = await pageContext(c);
  return render(
    c,
    "/admin/sessions",
    c.get("i18n").t("nav.sessions"),
    <>
      <SessionsPage sessions={sessions} exposures={exposures} csrf={context.csrf} {...extra} />
      <BackfillPanel
        groups={backfill.groups}
        configured={backfill.configured}
        names={names}
        csrf={context.csrf}
      />
    </>,
    status,
  );
}

const field = (form: Record<string, unknown>, key: string) =>
  typeof form[key] === "string" ? (form[key] as string).trim() : "";

const run = (c: Context<AppEnv>, op: SessionOperation, body?: unknown) =>
  c.get("services").sessions.run(op, requestLine(c, body));

async function change(c: Context<AppEnv>, op: SessionOperation, body: unknown) {
  const answer = await run(c, op, body);
  if (!answer.ok) return page(c, { error: answer.text }, 400);
  return c.redirect(`/admin/sessions?notice=${encodeURIComponent(answer.text)}`, 303);
}

export const sessionsDashboardRoutes = new Hono<AppEnv>()
  .get("/", (c) => page(c, c.req.query("notice") ? { notice: c.req.query("notice") as string } : {}))
  .post("/link", async (c) => {
    const form = await c.req.parseBody();
    const a = field(form, "a");
    const b = field(form, "b");
    const yes = field(form, "confirm") === "yes";
    const answer = await run(c, { op: "link", a, b, yes }, { a, b, confirm: yes });
    if (answer.ok) return c.redirect(`/admin/sessions?notice=${encodeURIComponent(answer.text)}`, 303);
    // The confirmation step: the same link again, with whose memory it exposes spelled out.
    if (answer.error.kind === "invalid" && answer.error.field === "yes") {
      const exposures = await c.get("services").sessions.linkExposures(a, b);
      if (exposures) return page(c, { pending: { a, b, exposures } }, 400);
    }
    return page(c, { error: answer.text }, 400);
  })
  .post("/backfill/restart", async (c) => {
    const chat = field(await c.req.parseBody(), "chat");
    const restarted = await c.get("services").backfill.restart(chat);
    const t = c.get("i18n").t;
    if (!restarted.ok) {
      const e = restarted.error;
      const reason =
        "reason" in e
          ? `${"field" in e ? `${e.field} ` : ""}${e.reason}`
          : e.kind === "not-found"
            ? t("error.notFound", { what: e.what })
            : e.kind;
      return page(
        c,
        { error: t("backfill.notRestarted", { chat: chat || t("backfill.noChat"), reason }) },
        400,
      );
    }
    const { changed, progress } = restarted.value;
    const notice = changed
      ? t("backfill.restarted", {
          chat: progress.chatKey,
          cursor: progress.cursor ?? t("backfill.newest"),
          stored: progress.stored,
        })
      : t("backfill.alreadyRunning", { chat: progress.chatKey });
    return c.redirect(`/admin/sessions?notice=${encodeURIComponent(notice)}`, 303);
  })
  .post("/:ref/rename", async (c) => {
    const alias = field(await c.req.parseBody(), "alias");
    return change(c, { op: "rename", ref: c.req.param("ref"), alias }, { alias });
  })
  .post("/:ref/unlink", (c) => change(c, { op: "unlink", ref: c.req.param("ref") }, {}))
  .post("/:ref/forget", async (c) => {
    const confirm = field(await c.req.parseBody(), "confirm");
    const ref = c.req.param("ref");
    return change(c, { op: "forget", ref, yes: confirm === ref }, { confirm });
  })
  .get("/:ref/export", async (c) => {
    const log = c.req.query("log") === "true";
    const answer = await run(c, { op: "export", ref: c.req.param("ref"), log });
    if (!answer.ok) return page(c, { error: answer.text }, 400);
    const session = answer.data.session as { sessionId: string };
    return c.body(String(answer.data.markdown), 200, {
      "content-type": "text/markdown; charset=utf-8",
      "content-disposition": `attachment; filename="${session.sessionId}.md"`,
    });
  });
