/**
 * The dashboard pages under /admin, server-rendered with hono/jsx; the admin guard (and its
 * CSRF check of every POST) runs before them. Pages read and change everything through the
 * request's admin services (`c.get("services")`), the same layer the JSON API is a face of,
 * with the same input schemas (admin-input/).
 */
import { type Context, Hono } from "hono";
import { parseBoundedJson } from "../../domain/kernel/bounded-json";
import type { DomainError } from "../../domain/kernel/result";
import { explainIssue, type ValidationIssue } from "../../domain/kernel/validation-issue";
import type { MemoryItem } from "../../domain/memory/memory";
import { scopeKey } from "../../domain/memory/scope";
import { MemoryAddBody, MemoryEditBody, MemoryListQuery, MemoryMoveBody } from "../admin-input/memory-input";
import { PreviewAsk } from "../admin-input/preview-input";
import { validate } from "../admin-input/validate";
import type { AppEnv } from "../app-env";
import { AuditPage } from "./audit-page";
import { ChatsPage, HistoryPage } from "./chats-page";
import { fillDays } from "./day-chart";
import { dayRange } from "./format";
import type { Translate } from "./i18n/i18n";
import { identityPageRoutes } from "./identity-page.routes";
import { knowledgePageRoutes, uploadScript } from "./knowledge-page.routes";
import { MemoryEditPage, type MemoryFilters, MemoryPage, type PreviewResult } from "./memory-page";
import { migrationsPageRoutes } from "./migrations-page.routes";
import { NoticesPanel } from "./notices-panel";
import { OverviewPage } from "./overview-page";
import { overviewStatus } from "./overview-status";
import { ownerPageRoutes } from "./owner-pages.routes";
import { pageContext } from "./page-context";
import { PageNotices } from "./page-notices";
import { render } from "./page-render";
import { sessionsDashboardRoutes } from "./sessions-dashboard.routes";
import { documentFromForm, type FieldErrors, formFields, formValues } from "./settings-form";
import { SettingsPage } from "./settings-page";

const DAYS = 14;

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
  const t = c.get("i18n").t;
  if (!found) return { error: t("memory.previewFailed") };
  if (!found.ok) {
    const e = found.error;
    return {
      error: e.kind === "invalid" ? `${e.field} ${e.reason}` : t("memory.previewError", { kind: e.kind }),
    };
  }
  const body = found.value;
  return { items: [...body.mandatory.pinned, ...body.recalled], readable: body.scopes.readable };
}

async function memoryPage(
  c: Context<AppEnv>,
  extra: { notice?: string; error?: string; status?: 400 | 404 | 409 } = {},
) {
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
    c.get("i18n").t("nav.memory"),
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
    parsed.ok ? (extra.status ?? 200) : 400,
  );
}

const said = (e: DomainError) =>
  e.kind === "invalid" ? `${e.field} ${e.reason}` : "reason" in e ? e.reason : e.kind;
const STATUS = { invalid: 400, "not-found": 404 } as const;
const statusOf = (e: DomainError) => (e.kind === "invalid" || e.kind === "not-found" ? STATUS[e.kind] : 409);
const placed = (
  t: Translate,
  key: "memory.added" | "memory.moved",
  v: { item: MemoryItem; confirmedShared: boolean },
) =>
  t(key, { id: v.item.nodeId, scope: scopeKey(v.item.scope) }) +
  (v.confirmedShared ? t("memory.sharedConfirmed") : "");

type SettingsPageState = {
  /** The JSON editor's text as typed (kept after an error). */
  typed?: string;
  error?: { field: string; reason: string };
  /** The form's values as typed, and the error beside each field. */
  form?: { values: Record<string, string>; errors: FieldErrors };
  notice?: string;
  status?: 200 | 400 | 409;
};

/** The decay settings in effect and the time now, for an item's age weight on its edit page. */
async function decayNow(c: Context<AppEnv>) {
  const view = await c.get("services").settings.read();
  return { decay: view.effective.memory.decay, now: Date.now() };
}

async function settingsPage(c: Context<AppEnv>, state: SettingsPageState = {}) {
  const view = await c.get("services").settings.read();
  const storedText = state.typed ?? JSON.stringify(view.stored ?? {}, null, 2);
  return render(
    c,
    "/admin/settings",
    c.get("i18n").t("nav.settings"),
    <SettingsPage
      effective={view.effective}
      storedText={storedText}
      revision={view.revision}
      csrf={(await pageContext(c)).csrf}
      values={state.form?.values ?? formValues(view.effective)}
      {...(state.form ? { fieldErrors: state.form.errors } : {})}
      {...(state.error ? { error: state.error } : {})}
      {...(state.notice ? { notice: state.notice } : {})}
    />,
    state.status ?? 200,
  );
}

/** A refused settings write as the page says it: the schema's issue in the page's language (zod's locale), else the write path's own words. */
function refusal(c: Context<AppEnv>, e: { field: string; reason: string; issue?: ValidationIssue }) {
  return { field: e.field, reason: e.issue ? explainIssue(e.issue, c.get("i18n").lang) : e.reason };
}

/** The grouped form: each field checked here, the whole validated by the one write path. */
async function saveSettingsForm(c: Context<AppEnv>, form: Record<string, unknown>, revision?: string) {
  const t = c.get("i18n").t;
  const values = Object.fromEntries(formFields().map((path) => [path, text(form[path] ?? "")]));
  if (typeof form["turn.persona"] === "string") values["turn.persona"] = form["turn.persona"];
  const view = await c.get("services").settings.read();
  const built = documentFromForm(values, view.stored, view.effective, t);
  if ("errors" in built) return settingsPage(c, { form: { values, errors: built.errors }, status: 400 });
  const saved = await c.get("services").settings.replace(built.document, revision);
  if (saved.ok) return settingsPage(c, { notice: t("common.saved") });
  if (saved.error.kind === "conflict")
    return settingsPage(c, { form: { values, errors: {} }, error: staleError(t), status: 409 });
  const { field, reason } = refusal(c, saved.error);
  // A field the form shows gets the error beside it; any other is the document's.
  if (formFields().includes(field))
    return settingsPage(c, { form: { values, errors: { [field]: reason } }, status: 400 });
  return settingsPage(c, { form: { values, errors: {} }, error: { field, reason }, status: 400 });
}

/** The overview page: counts, usage, spend, status, and the open notices to the owner. */
async function overview(
  c: Context<AppEnv>,
  extra: { notice?: string | undefined; error?: string },
  status: 200 | 400 | 404 | 409 = 200,
) {
  const services = c.get("services");
  const insights = services.insights;
  const now = Date.now();
  const [window, counts, today, total, spend, state, notices, context] = await Promise.all([
    insights.window(DAYS, now),
    insights.stats(DAYS, now),
    insights.usage(1, undefined, now),
    insights.usage(DAYS, undefined, now),
    insights.spendToday(undefined, now),
    overviewStatus(c),
    services.notices.list(),
    pageContext(c),
  ]);
  return render(
    c,
    "/admin",
    c.get("i18n").t("nav.overview"),
    <>
      <PageNotices {...extra} />
      <OverviewPage
        notices={<NoticesPanel notices={notices} csrf={context.csrf} />}
        stats={counts}
        days={fillDays(window, counts.messagesByDay)}
        today={today.total}
        total={total.total}
        spend={spend}
        status={state}
      />
    </>,
    status,
  );
}

const staleError = (t: Translate) => ({ field: "revision", reason: t("settings.stale") });

export const dashboardRoutes = new Hono<AppEnv>()
  .route("/identity", identityPageRoutes)
  .route("/knowledge", knowledgePageRoutes)
  .get("/upload.js", uploadScript)
  .route("/migrations", migrationsPageRoutes)
  .route("/sessions", sessionsDashboardRoutes)
  .route("/", ownerPageRoutes)
  .get("/", (c) => overview(c, { ...(c.req.query("notice") ? { notice: c.req.query("notice") } : {}) }))
  .post("/notices/:id/ack", async (c) => {
    const done = await c.get("services").notices.acknowledge(c.req.param("id"));
    const t = c.get("i18n").t;
    if (!done.ok)
      return overview(
        c,
        { error: t("notices.ackFailed", { reason: said(done.error) }) },
        statusOf(done.error),
      );
    return c.redirect(`/admin?notice=${encodeURIComponent(t("notices.acked", { id: done.value.id }))}`, 303);
  })
  .get("/chats", async (c) => {
    const chats = await c.get("services").chats.list();
    return render(c, "/admin/chats", c.get("i18n").t("nav.chats"), <ChatsPage chats={chats} />);
  })
  .get("/chats/:chat", async (c) => {
    const chatKey = c.req.param("chat");
    const q = c.req.query();
    const { timeZone } = c.get("i18n");
    const from = dayRange(q.from, timeZone)?.start;
    const until = dayRange(q.until, timeZone)?.end;
    const messages = await c.get("services").chats.browse(chatKey, {
      limit: 200,
      ...(q.q ? { text: q.q } : {}),
      ...(q.sender ? { sender: q.sender } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(until !== undefined ? { until } : {}),
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
    const t = c.get("i18n").t;
    const notice = done.ok
      ? t(action === "archive" ? "memory.archived" : "memory.restored", { id })
      : t(action === "archive" ? "memory.couldNotArchive" : "memory.couldNotRestore", { id });
    return c.redirect(`/admin/memory?notice=${encodeURIComponent(notice)}`, 303);
  })
  .post("/memory/:id/forget", async (c) => {
    const id = c.req.param("id");
    const form = await c.req.parseBody();
    if (form.confirm !== id) return memoryPage(c, { error: c.get("i18n").t("memory.tickSure") });
    const forgotten = await c.get("services").memory.forget(id);
    const notice = c.get("i18n").t(forgotten ? "memory.forgot" : "memory.noItem", { id });
    return c.redirect(`/admin/memory?notice=${encodeURIComponent(notice)}`, 303);
  })
  .post("/memory/add", async (c) => {
    const form = await c.req.parseBody();
    const importance = text(form.importance);
    const input = validate(MemoryAddBody, {
      scope: text(form.scope),
      text: text(form.text),
      kind: text(form.kind),
      sensitivity: text(form.sensitivity),
      ...(importance ? { importance: Number(importance) } : {}),
      confirmShared: form.confirmShared === "true",
    });
    const added = input.ok ? await c.get("services").memory.add(input.value) : input;
    if (!added.ok)
      return memoryPage(c, {
        error: c.get("i18n").t("memory.notAdded", { reason: said(added.error) }),
        status: statusOf(added.error),
      });
    return c.redirect(
      `/admin/memory?notice=${encodeURIComponent(placed(c.get("i18n").t, "memory.added", added.value))}`,
      303,
    );
  })
  .post("/memory/:id/move", async (c) => {
    const form = await c.req.parseBody();
    const input = validate(MemoryMoveBody, {
      scope: text(form.scope),
      confirmShared: form.confirmShared === "true",
    });
    const moved = input.ok
      ? await c.get("services").memory.move(c.req.param("id"), input.value.scope, input.value.confirmShared)
      : input;
    if (!moved.ok)
      return memoryPage(c, {
        error: c.get("i18n").t("memory.notMoved", { reason: said(moved.error) }),
        status: statusOf(moved.error),
      });
    return c.redirect(
      `/admin/memory?notice=${encodeURIComponent(placed(c.get("i18n").t, "memory.moved", moved.value))}`,
      303,
    );
  })
  .get("/memory/:id/edit", async (c) => {
    const item = await c.get("services").memory.get(c.req.param("id"));
    if (!item) return c.notFound();
    return render(
      c,
      "/admin/memory",
      c.get("i18n").t("memory.edit"),
      <MemoryEditPage
        item={item}
        csrf={(await pageContext(c)).csrf}
        {...(await decayNow(c))}
        {...(c.req.query("notice") ? { notice: c.req.query("notice") } : {})}
      />,
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
      const reason =
        edit.error.kind === "invalid"
          ? `${edit.error.field} ${edit.error.reason}`
          : c.get("i18n").t("common.invalid");
      const csrf = (await pageContext(c)).csrf;
      return render(
        c,
        "/admin/memory",
        c.get("i18n").t("memory.edit"),
        <MemoryEditPage item={item} csrf={csrf} error={reason} {...(await decayNow(c))} />,
        400,
      );
    }
    await admin.edit(item.nodeId, edit.value);
    return c.redirect(
      `/admin/memory?notice=${encodeURIComponent(c.get("i18n").t("memory.savedItem", { id: item.nodeId }))}`,
      303,
    );
  })
  .post("/memory/:id/keep", async (c) => {
    const form = await c.req.parseBody();
    const edit = validate(MemoryEditBody, { keepForever: form.keepForever === "true" });
    const item = edit.ok ? await c.get("services").memory.edit(c.req.param("id"), edit.value) : null;
    if (!item) return c.notFound();
    const key = item.decay?.keepForever ? "memory.keptForever" : "memory.notKeptForever";
    const notice = encodeURIComponent(c.get("i18n").t(key, { id: item.nodeId }));
    return c.redirect(`/admin/memory/${encodeURIComponent(item.nodeId)}/edit?notice=${notice}`, 303);
  })
  .get("/settings", (c) => settingsPage(c))
  .post("/settings", async (c) => {
    const form = await c.req.parseBody();
    const t = c.get("i18n").t;
    // The form always carries the revision it was read at; a post without one saves against
    // whatever this request reads, as the API does without If-Match.
    const revision = typeof form.revision === "string" ? form.revision : undefined;
    if (form.form === "fields") return saveSettingsForm(c, form, revision);
    const typed = typeof form.stored === "string" ? form.stored : "";
    const parsed = parseBoundedJson(typed);
    if (!parsed.ok)
      return settingsPage(c, {
        typed,
        error: {
          field: t("settings.document"),
          reason: parsed.tooDeep ? parsed.reason : t("settings.notJson", { syntax: parsed.syntax }),
        },
        status: 400,
      });
    const saved = await c.get("services").settings.replace(parsed.value, revision);
    if (saved.ok) return settingsPage(c, { notice: t("common.saved") });
    if (saved.error.kind === "conflict") return settingsPage(c, { typed, error: staleError(t), status: 409 });
    return settingsPage(c, { typed, error: refusal(c, saved.error), status: 400 });
  })
  .get("/audit", async (c) => {
    const q = c.req.query();
    const { timeZone } = c.get("i18n");
    const from = dayRange(q.from, timeZone)?.start;
    const until = dayRange(q.until, timeZone)?.end;
    const entries = await c.get("services").insights.audit({
      limit: 200,
      ...(q.actor ? { actor: q.actor } : {}),
      ...(q.action ? { action: q.action } : {}),
      ...(q.chat ? { chat: q.chat } : {}),
      ...(from !== undefined ? { since: from } : {}),
      ...(until !== undefined ? { until } : {}),
    });
    return render(
      c,
      "/admin/audit",
      c.get("i18n").t("nav.audit"),
      <AuditPage filters={q} entries={entries} />,
    );
  });
