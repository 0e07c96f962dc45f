/**
 * The dashboard pages under /admin, server-rendered with hono/jsx; the admin guard (and its
 * CSRF check of every POST) runs before them. Pages read and change everything through the
 * request's admin services (`c.get("services")`), the same layer the JSON API is a face of,
 * with the same input schemas (admin-input/).
 */
import { type Context, Hono } from "hono";
import { parseBoundedJson } from "../../domain/kernel/bounded-json";
import { MemoryEditBody, MemoryListQuery } from "../admin-input/memory-input";
import { PreviewAsk } from "../admin-input/preview-input";
import { validate } from "../admin-input/validate";
import type { AppEnv } from "../app-env";
import { AuditPage } from "./audit-page";
import { ChatsPage, HistoryPage } from "./chats-page";
import { fillDays } from "./day-chart";
import { dayStart } from "./format";
import { identityPageRoutes } from "./identity-page.routes";
import { knowledgePageRoutes, uploadScript } from "./knowledge-page.routes";
import { MemoryEditPage, type MemoryFilters, MemoryPage, type PreviewResult } from "./memory-page";
import { migrationsPageRoutes } from "./migrations-page.routes";
import { OverviewPage } from "./overview-page";
import { overviewStatus } from "./overview-status";
import { pageContext } from "./page-context";
import { render } from "./page-render";
import { sessionsDashboardRoutes } from "./sessions-dashboard.routes";
import { SettingsPage } from "./settings-page";

const DAYS = 14;
const DAY_MS = 86_400_000;

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

async function preview(
  c: Context<AppEnv>,
  chat: string,
  sender: string,
  said: string,
): Promise<PreviewResult> {
  const ask = validate(PreviewAsk, { chat, text: said, ...(sender ? { sender } : {}) });
  // A preview that fails shows as text on the page; the rest of the page stands.
  const found = ask.ok
    ? await c
        .get("services")
        .chats.preview(ask.value)
        .catch(() => null)
    : ask;
  if (!found) return { error: "preview failed" };
  if (!found.ok) {
    const e = found.error;
    return { error: e.kind === "invalid" ? `${e.field} ${e.reason}` : `preview ${e.kind}` };
  }
  const body = found.value;
  return { items: [...body.mandatory.pinned, ...body.recalled], readable: body.scopes.readable };
}

async function memoryPage(c: Context<AppEnv>, extra: { notice?: string; error?: string } = {}) {
  const q = c.req.query();
  const keys = ["scope", "kind", "sensitivity", "status", "chat", "person", "text"] as const;
  const filters = Object.fromEntries(keys.map((k) => [k, q[k] ?? ""])) as MemoryFilters;
  const given = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== ""));
  const parsed = validate(MemoryListQuery, given);
  const admin = c.get("services").memory;
  const list = parsed.ok ? await admin.list(parsed.value) : { items: [], total: 0 };
  const error = parsed.ok
    ? extra.error
    : `${parsed.error.kind === "invalid" ? parsed.error.field : ""} ${parsed.error.kind === "invalid" ? parsed.error.reason : ""}`;
  const form = { chat: q.pchat ?? "", sender: q.psender ?? "", text: q.ptext ?? "" };
  const result = form.chat && form.text ? await preview(c, form.chat, form.sender, form.text) : null;
  const { candidates } = await admin.candidates({ limit: 20, offset: 0 });
  return render(
    c,
    "/admin/memory",
    "Memory",
    <MemoryPage
      filters={filters}
      items={list.items}
      total={list.total}
      candidates={candidates}
      preview={{ form, result }}
      csrf={(await pageContext(c)).csrf}
      {...(extra.notice ? { notice: extra.notice } : {})}
      {...(error ? { error } : {})}
    />,
    parsed.ok ? 200 : 400,
  );
}

async function settingsPage(
  c: Context<AppEnv>,
  typed?: string,
  error?: { field: string; reason: string },
  notice?: string,
) {
  const view = await c.get("services").settings.read();
  const storedText = typed ?? JSON.stringify(view.stored ?? {}, null, 2);
  return render(
    c,
    "/admin/settings",
    "Settings",
    <SettingsPage
      effective={view.effective}
      storedText={storedText}
      revision={view.revision}
      csrf={(await pageContext(c)).csrf}
      {...(error ? { error } : {})}
      {...(notice ? { notice } : {})}
    />,
    error ? (error.field === "revision" ? 409 : 400) : 200,
  );
}

export const dashboardRoutes = new Hono<AppEnv>()
  .route("/identity", identityPageRoutes)
  .route("/knowledge", knowledgePageRoutes)
  .get("/upload.js", uploadScript)
  .route("/migrations", migrationsPageRoutes)
  .route("/sessions", sessionsDashboardRoutes)
  .get("/", async (c) => {
    const insights = c.get("services").insights;
    const now = Date.now();
    const start = insights.windowStart(DAYS, now);
    const [counts, today, total, spend, status] = await Promise.all([
      insights.stats(DAYS, now),
      insights.usage(1, undefined, now),
      insights.usage(DAYS, undefined, now),
      insights.spendToday(undefined, now),
      overviewStatus(c),
    ]);
    return render(
      c,
      "/admin",
      "Overview",
      <OverviewPage
        stats={counts}
        days={fillDays(start, DAYS, counts.messagesByDay)}
        today={today.total}
        total={total.total}
        spend={spend}
        status={status}
      />,
    );
  })
  .get("/chats", async (c) => {
    const chats = await c.get("services").chats.list();
    return render(c, "/admin/chats", "Chats", <ChatsPage chats={chats} />);
  })
  .get("/chats/:chat", async (c) => {
    const chatKey = c.req.param("chat");
    const q = c.req.query();
    const from = dayStart(q.from);
    const until = dayStart(q.until);
    const messages = await c.get("services").chats.browse(chatKey, {
      limit: 200,
      ...(q.q ? { text: q.q } : {}),
      ...(q.sender ? { sender: q.sender } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(until !== undefined ? { until: until + DAY_MS } : {}),
    });
    return render(
      c,
      "/admin/chats",
      chatKey,
      <HistoryPage chatKey={chatKey} filters={q} messages={messages} />,
    );
  })
  .get("/memory", (c) =>
    memoryPage(c, { ...(c.req.query("notice") ? { notice: c.req.query("notice") } : {}) }),
  )
  .post("/memory/:id/:action{archive|restore}", async (c) => {
    const id = c.req.param("id");
    const action = c.req.param("action") as "archive" | "restore";
    const done = await c.get("services").memory.changeStatus(id, action);
    const notice = done.ok
      ? `${action === "archive" ? "Archived" : "Restored"} ${id}.`
      : `Could not ${action} ${id}.`;
    return c.redirect(`/admin/memory?notice=${encodeURIComponent(notice)}`, 303);
  })
  .post("/memory/:id/forget", async (c) => {
    const id = c.req.param("id");
    const form = await c.req.parseBody();
    if (form.confirm !== id) return memoryPage(c, { error: "Tick “sure” to forget an item." });
    const forgotten = await c.get("services").memory.forget(id);
    const notice = forgotten ? `Forgot ${id}.` : `No item ${id}.`;
    return c.redirect(`/admin/memory?notice=${encodeURIComponent(notice)}`, 303);
  })
  .get("/memory/:id/edit", async (c) => {
    const item = await c.get("services").memory.get(c.req.param("id"));
    if (!item) return c.notFound();
    return render(
      c,
      "/admin/memory",
      "Edit memory",
      <MemoryEditPage item={item} csrf={(await pageContext(c)).csrf} />,
    );
  })
  .post("/memory/:id/edit", async (c) => {
    const admin = c.get("services").memory;
    const item = await admin.get(c.req.param("id"));
    if (!item) return c.notFound();
    const form = await c.req.parseBody();
    const edit = validate(MemoryEditBody, {
      text: text(form.text),
      kind: text(form.kind),
      sensitivity: text(form.sensitivity),
      importance: Number(text(form.importance)),
      portable: form.portable === "true",
    });
    if (!edit.ok) {
      const reason = edit.error.kind === "invalid" ? `${edit.error.field} ${edit.error.reason}` : "invalid";
      const csrf = (await pageContext(c)).csrf;
      return render(
        c,
        "/admin/memory",
        "Edit memory",
        <MemoryEditPage item={item} csrf={csrf} error={reason} />,
        400,
      );
    }
    await admin.edit(item.nodeId, edit.value);
    return c.redirect(`/admin/memory?notice=${encodeURIComponent(`Saved ${item.nodeId}.`)}`, 303);
  })
  .get("/settings", (c) => settingsPage(c))
  .post("/settings", async (c) => {
    const form = await c.req.parseBody();
    const typed = typeof form.stored === "string" ? form.stored : "";
    // The form always carries the revision it was read at; a post without one saves against
    // whatever this request reads, as the API does without If-Match.
    const revision = typeof form.revision === "string" ? form.revision : undefined;
    const parsed = parseBoundedJson(typed);
    if (!parsed.ok)
      return settingsPage(c, typed, {
        field: "(document)",
        reason: parsed.tooDeep ? parsed.reason : `is not valid JSON (${parsed.syntax})`,
      });
    const saved = await c.get("services").settings.replace(parsed.value, revision);
    if (saved.ok) return settingsPage(c, undefined, undefined, "Saved.");
    if (saved.error.kind === "conflict")
      return settingsPage(c, typed, {
        field: "revision",
        reason: "the stored settings changed since this page was loaded; reload and edit again",
      });
    return settingsPage(c, typed, saved.error);
  })
  .get("/audit", async (c) => {
    const q = c.req.query();
    const from = dayStart(q.from);
    const until = dayStart(q.until);
    const entries = await c.get("services").insights.audit({
      limit: 200,
      ...(q.actor ? { actor: q.actor } : {}),
      ...(q.action ? { action: q.action } : {}),
      ...(q.chat ? { chat: q.chat } : {}),
      ...(from !== undefined ? { since: from } : {}),
      ...(until !== undefined ? { until: until + DAY_MS } : {}),
    });
    return render(c, "/admin/audit", "Audit log", <AuditPage filters={q} entries={entries} />);
  });
