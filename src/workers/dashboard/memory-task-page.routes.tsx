/**
 * A task's lifecycle on its edit page (docs/memory.md#decay-and-reinforcement), through the same
 * memory service as /api/memory: "标记完成" archives an active task now as expired with cause
 * "done", and the due-time field sets or clears its due time, read in `calendar.timeZone`. A
 * refusal answers with the edit page and a Chinese reason, having changed nothing.
 */
import { Hono } from "hono";
import { formatLocalTime, parseLocalInput } from "../../domain/kernel/local-time";
import { MemoryEditBody } from "../admin-input/memory-input";
import { validate } from "../admin-input/validate";
import type { AppEnv } from "../app-env";
import { renderEditPage } from "./memory-edit-render";

const editPath = (id: string, notice: string) =>
  `/admin/memory/${encodeURIComponent(id)}/edit?notice=${encodeURIComponent(notice)}`;

export const memoryTaskPageRoutes = new Hono<AppEnv>()
  .post("/:id/done", async (c) => {
    const memory = c.get("services").memory;
    const id = c.req.param("id");
    const done = await memory.done(id);
    const t = c.get("i18n").t;
    if (done.ok) return c.redirect(editPath(id, t("memory.task.markedDone", { id })), 303);
    const item = done.reason === "not-found" ? null : await memory.get(id);
    if (!item) return c.notFound();
    return renderEditPage(c, item, { error: t("memory.task.notDone"), status: 400 });
  })
  .post("/:id/due", async (c) => {
    const memory = c.get("services").memory;
    const item = await memory.get(c.req.param("id"));
    if (!item) return c.notFound();
    const { t, timeZone } = c.get("i18n");
    if (item.kind !== "task")
      return renderEditPage(c, item, { error: t("memory.task.dueOnlyTask"), status: 400 });
    const form = await c.req.parseBody();
    const raw = typeof form.dueAt === "string" ? form.dueAt.trim() : "";
    // An empty field clears the due time; anything else must name an instant in the zone.
    const dueAt = raw === "" ? null : parseLocalInput(raw, timeZone);
    const edit = raw !== "" && dueAt === null ? null : validate(MemoryEditBody, { dueAt });
    if (!edit?.ok)
      return renderEditPage(c, item, {
        error: t("memory.task.badDue", { value: raw, zone: timeZone }),
        status: 400,
      });
    await memory.edit(item.nodeId, edit.value);
    const notice =
      dueAt === null
        ? t("memory.task.dueCleared", { id: item.nodeId })
        : t("memory.task.dueSet", { id: item.nodeId, at: formatLocalTime(dueAt, timeZone) });
    return c.redirect(editPath(item.nodeId, notice), 303);
  });
