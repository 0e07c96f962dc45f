/**
 * The Memory page under /admin/memory: the item list with its filters, the dreaming candidates
 * and the context preview, and each item's forms — archive, restore, forget, add, move, edit,
 * keep forever, and a task's due time and "标记完成" (memory-task-page.routes.tsx) — through the
 * same memory service and input schemas as /api/memory.
 */
import { type Context, Hono } from "hono";
import type { MemoryItem } from "../../domain/memory/memory";
import { scopeKey } from "../../domain/memory/scope";
import { MemoryAddBody, MemoryEditBody, MemoryListQuery, MemoryMoveBody } from "../admin-input/memory-input";
import { PreviewAsk } from "../admin-input/preview-input";
import { validate } from "../admin-input/validate";
import type { AppEnv } from "../app-env";
import type { Translate } from "./i18n/i18n";
import { renderEditPage } from "./memory-edit-render";
import { type MemoryFilters, MemoryPage, type PreviewResult } from "./memory-page";
import { memoryTaskPageRoutes } from "./memory-task-page.routes";
import { pageContext } from "./page-context";
import { said, statusOf } from "./page-refusal";
import { render } from "./page-render";

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

const placed = (
  t: Translate,
  key: "memory.added" | "memory.moved",
  v: { item: MemoryItem; confirmedShared: boolean },
) =>
  t(key, { id: v.item.nodeId, scope: scopeKey(v.item.scope) }) +
  (v.confirmedShared ? t("memory.sharedConfirmed") : "");

export const memoryPageRoutes = new Hono<AppEnv>()
  .get("/", (c) => memoryPage(c, { ...(c.req.query("notice") ? { notice: c.req.query("notice") } : {}) }))
  .post("/:id/:action{archive|restore}", async (c) => {
    const id = c.req.param("id");
    const action = c.req.param("action") as "archive" | "restore";
    const done = await c.get("services").memory.changeStatus(id, action);
    const t = c.get("i18n").t;
    const notice = done.ok
      ? t(action === "archive" ? "memory.archived" : "memory.restored", { id })
      : t(action === "archive" ? "memory.couldNotArchive" : "memory.couldNotRestore", { id });
    return c.redirect(`/admin/memory?notice=${encodeURIComponent(notice)}`, 303);
  })
  .post("/:id/forget", async (c) => {
    const id = c.req.param("id");
    const form = await c.req.parseBody();
    if (form.confirm !== id) return memoryPage(c, { error: c.get("i18n").t("memory.tickSure") });
    const forgotten = await c.get("services").memory.forget(id);
    const notice = c.get("i18n").t(forgotten ? "memory.forgot" : "memory.noItem", { id });
    return c.redirect(`/admin/memory?notice=${encodeURIComponent(notice)}`, 303);
  })
  .post("/add", async (c) => {
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
  .post("/:id/move", async (c) => {
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
  .get("/:id/edit", async (c) => {
    const item = await c.get("services").memory.get(c.req.param("id"));
    if (!item) return c.notFound();
    return renderEditPage(c, item, { ...(c.req.query("notice") ? { notice: c.req.query("notice") } : {}) });
  })
  .post("/:id/edit", async (c) => {
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
      return renderEditPage(c, item, { error: reason, status: 400 });
    }
    await admin.edit(item.nodeId, edit.value);
    return c.redirect(
      `/admin/memory?notice=${encodeURIComponent(c.get("i18n").t("memory.savedItem", { id: item.nodeId }))}`,
      303,
    );
  })
  .post("/:id/keep", async (c) => {
    const form = await c.req.parseBody();
    const edit = validate(MemoryEditBody, { keepForever: form.keepForever === "true" });
    const item = edit.ok ? await c.get("services").memory.edit(c.req.param("id"), edit.value) : null;
    if (!item) return c.notFound();
    const key = item.decay?.keepForever ? "memory.keptForever" : "memory.notKeptForever";
    const notice = encodeURIComponent(c.get("i18n").t(key, { id: item.nodeId }));
    return c.redirect(`/admin/memory/${encodeURIComponent(item.nodeId)}/edit?notice=${notice}`, 303);
  })
  .route("/", memoryTaskPageRoutes);
