/**
 * The dashboard pages under /admin, server-rendered with hono/jsx; the admin guard (and its
 * CSRF check of every POST) runs before them. Pages call the same adapters and validation as
 * the JSON API; the context preview goes through the API route itself, so both show the same.
 */
import { type Context, Hono } from "hono";
import { adminStats, auditLog, memoryAdmin, messageBrowser } from "../../composition/admin-services";
import { chatRegistry } from "../../composition/chat-registry";
import { d1SettingsAdmin } from "../../composition/settings-source";
import { spendToday } from "../../composition/spend-ledger";
import type { TurnPreview } from "../../domain/agent/turn-preview";
import { effectiveSettings, replaceStoredLayer } from "../../domain/config/settings-edit";
import type { AppEnv } from "../app-env";
import { windowStart } from "../routes/insights.routes";
import { MemoryEditBody, MemoryListQuery } from "../routes/memory-admin.routes";
import { validate } from "../routes/zod-problem";
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
const act = (c: Context<AppEnv>) => ({ actor: c.get("admin").actor, at: Date.now() });

async function preview(
  c: Context<AppEnv>,
  chat: string,
  sender: string,
  said: string,
): Promise<PreviewResult> {
  const res = await c.get("selfFetch")(
    new Request(new URL("/api/context/preview", c.req.url), {
      method: "POST",
      headers: { authorization: `Bearer ${c.get("config").adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ chat, text: said, ...(sender ? { sender } : {}) }),
    }),
  );
  const body = (await res.json()) as TurnPreview & { field?: string; reason?: string };
  if (!res.ok) return { error: `${body.field ?? "preview"} ${body.reason ?? `failed (${res.status})`}` };
  return { items: [...body.mandatory.pinned, ...body.recalled], readable: body.scopes.readable };
}

async function memoryPage(c: Context<AppEnv>, extra: { notice?: string; error?: string } = {}) {
  const q = c.req.query();
  const keys = ["scope", "kind", "sensitivity", "status", "chat", "person", "text"] as const;
  const filters = Object.fromEntries(keys.map((k) => [k, q[k] ?? ""])) as MemoryFilters;
  const given = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== ""));
  const parsed = validate(MemoryListQuery, given);
  const admin = memoryAdmin(c.env);
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
  const layers = await d1SettingsAdmin(c.env).layers();
  const stored = layers.ok ? layers.value.stored : null;
  const revision = layers.ok ? (layers.value.revision ?? null) : null;
  const current = effectiveSettings({ var: layers.ok ? layers.value.var : {}, stored });
  const storedText = typed ?? JSON.stringify(stored ?? {}, null, 2);
  return render(
    c,
    "/admin/settings",
    "Settings",
    <SettingsPage
      effective={current.ok ? current.value.settings : null}
      storedText={storedText}
      revision={revision}
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
    const now = Date.now();
    const start = windowStart(now, DAYS);
    const stats = adminStats(c.env);
    const [counts, today, total, spend, status] = await Promise.all([
      stats.stats(start),
      stats.usage(windowStart(now, 1), now + 1),
      stats.usage(start, now + 1),
      spendToday(c.env, now),
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
    const chats = await chatRegistry(c.env).list();
    return render(c, "/admin/chats", "Chats", <ChatsPage chats={chats} />);
  })
  .get("/chats/:chat", async (c) => {
    const chatKey = c.req.param("chat");
    const q = c.req.query();
    const from = dayStart(q.from);
    const until = dayStart(q.until);
    const messages = await messageBrowser(c.env).messages(chatKey, {
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
    const done = await memoryAdmin(c.env).changeStatus(id, action, act(c));
    const notice = done.ok
      ? `${action === "archive" ? "Archived" : "Restored"} ${id}.`
      : `Could not ${action} ${id}.`;
    return c.redirect(`/admin/memory?notice=${encodeURIComponent(notice)}`, 303);
  })
  .post("/memory/:id/forget", async (c) => {
    const id = c.req.param("id");
    const form = await c.req.parseBody();
    if (form.confirm !== id) return memoryPage(c, { error: "Tick “sure” to forget an item." });
    const forgotten = await memoryAdmin(c.env).forget(id, act(c));
    const notice = forgotten ? `Forgot ${id}.` : `No item ${id}.`;
    return c.redirect(`/admin/memory?notice=${encodeURIComponent(notice)}`, 303);
  })
  .get("/memory/:id/edit", async (c) => {
    const item = await memoryAdmin(c.env).get(c.req.param("id"));
    if (!item) return c.notFound();
    return render(
      c,
      "/admin/memory",
      "Edit memory",
      <MemoryEditPage item={item} csrf={(await pageContext(c)).csrf} />,
    );
  })
  .post("/memory/:id/edit", async (c) => {
    const admin = memoryAdmin(c.env);
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
    await admin.edit(item.nodeId, edit.value, act(c));
    return c.redirect(`/admin/memory?notice=${encodeURIComponent(`Saved ${item.nodeId}.`)}`, 303);
  })
  .get("/settings", (c) => settingsPage(c))
  .post("/settings", async (c) => {
    const form = await c.req.parseBody();
    const typed = typeof form.stored === "string" ? form.stored : "";
    const revision = form.fresh === "1" ? null : typeof form.revision === "string" ? form.revision : null;
    let document: unknown;
    try {
      document = JSON.parse(typed);
    } catch (e) {
      return settingsPage(c, typed, {
        field: "(document)",
        reason: `is not valid JSON (${(e as Error).message})`,
      });
    }
    const settings = d1SettingsAdmin(c.env);
    const layers = await settings.layers();
    if (!layers.ok) return settingsPage(c, typed, { field: layers.error.field, reason: layers.error.reason });
    const edit = replaceStoredLayer(layers.value, document);
    if (!edit.ok)
      return settingsPage(
        c,
        typed,
        edit.error.kind === "invalid" ? edit.error : { field: "(document)", reason: "is invalid" },
      );
    const { actor, at } = act(c);
    if (!(await settings.save(edit.value.stored, actor, revision)))
      return settingsPage(c, typed, {
        field: "revision",
        reason: "the stored settings changed since this page was loaded; reload and edit again",
      });
    await auditLog(c.env).record({
      at,
      actor,
      action: "config.replace",
      chatKey: null,
      target: "settings",
      detail: { via: "dashboard" },
    });
    return settingsPage(c, undefined, undefined, "Saved.");
  })
  .get("/audit", async (c) => {
    const q = c.req.query();
    const from = dayStart(q.from);
    const until = dayStart(q.until);
    const entries = await auditLog(c.env).list({
      limit: 200,
      ...(q.actor ? { actor: q.actor } : {}),
      ...(q.action ? { action: q.action } : {}),
      ...(q.chat ? { chat: q.chat } : {}),
      ...(from !== undefined ? { since: from } : {}),
      ...(until !== undefined ? { until: until + DAY_MS } : {}),
    });
    return render(c, "/admin/audit", "Audit log", <AuditPage filters={q} entries={entries} />);
  });
