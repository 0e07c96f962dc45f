/**
 * The admin API for memory items: list and filter, read, add to any scope, move to another
 * scope (a private or secret item into a shared scope only with `confirmShared`), edit,
 * archive, restore, forget (confirmed by repeating the id), the dreaming candidates with their
 * decisions, and the items, chat summaries and candidates that hold a credential as today's
 * detectors read them, listed masked and erased (docs/decisions/0980-memory-kept-before-a-detector-read-it.md). Every change is audited
 * with the acting admin; bad input — and text holding a credential — is refused before anything
 * is written.
 */
import { Hono } from "hono";
import { z } from "zod";
import { EraseBody, HeldQuery, heldId } from "../admin-input/credential-input";
import {
  MemoryAddBody,
  MemoryEditBody,
  MemoryListQuery,
  MemoryMoveBody,
  page,
  shortText,
} from "../admin-input/memory-input";
import { validate } from "../admin-input/validate";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { jsonBody } from "../json-body";

const id = heldId;

/** Forgetting deletes for good: the caller repeats the id to confirm. */
const ForgetBody = z.object({ confirm: z.string().max(128) }).strict();

const CandidateQuery = z
  .object({
    chat: shortText.optional(),
    decision: z.enum(["insert", "supersede", "archive", "duplicate", "rejected"]).optional(),
    run: shortText.optional(),
    ...page,
  })
  .strict();

export const memoryAdminRoutes = new Hono<AppEnv>()
  // Before "/:id": "credentials" would read as an item's id.
  .get("/credentials", async (c) => {
    const q = validate(HeldQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    return c.json(await c.get("services").memory.heldCredentials(q.value));
  })
  .post("/credentials/erase", jsonBody(EraseBody), async (c) => {
    const erased = await c.get("services").memory.eraseCredentials(c.req.valid("json").ids);
    if (erased.ok) return c.json({ erased: erased.value });
    const { notFound, notHeld } = erased.error;
    const reason = [
      ...(notFound.length ? [`names no memory item, summary or candidate: ${notFound.join(", ")}`] : []),
      ...(notHeld.length ? [`holds no credential: ${notHeld.join(", ")}`] : []),
    ].join("; ");
    return problem(c, { kind: "invalid", field: "ids", reason: `${reason}; nothing was erased` });
  })
  .get("/", async (c) => {
    const q = validate(MemoryListQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    const { items, total } = await c.get("services").memory.list(q.value);
    return c.json({ items, total, limit: q.value.limit, offset: q.value.offset });
  })
  .post("/", jsonBody(MemoryAddBody), async (c) => {
    const added = await c.get("services").memory.add(c.req.valid("json"));
    if (!added.ok) return problem(c, added.error);
    return c.json(added.value, 201);
  })
  .get("/candidates", async (c) => {
    const q = validate(CandidateQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    return c.json(await c.get("services").memory.candidates(q.value));
  })
  .get("/:id", async (c) => {
    const nodeId = validate(id, c.req.param("id"));
    if (!nodeId.ok) return problem(c, { kind: "invalid", field: "id", reason: "must be a memory item id" });
    const item = await c.get("services").memory.get(nodeId.value);
    return item ? c.json({ item }) : problem(c, { kind: "not-found", what: `memory item ${nodeId.value}` });
  })
  .patch("/:id", jsonBody(MemoryEditBody), async (c) => {
    const nodeId = validate(id, c.req.param("id"));
    if (!nodeId.ok) return problem(c, { kind: "invalid", field: "id", reason: "must be a memory item id" });
    const edit = c.req.valid("json");
    const memory = c.get("services").memory;
    if (edit.dueAt !== undefined && edit.dueAt !== null) {
      const before = await memory.get(nodeId.value);
      if (before && (edit.kind ?? before.kind) !== "task")
        return problem(c, { kind: "invalid", field: "dueAt", reason: "only a task has a due time" });
    }
    const item = await memory.edit(nodeId.value, edit);
    return item ? c.json({ item }) : problem(c, { kind: "not-found", what: `memory item ${nodeId.value}` });
  })
  .post("/:id/done", async (c) => {
    const nodeId = validate(id, c.req.param("id"));
    if (!nodeId.ok) return problem(c, { kind: "invalid", field: "id", reason: "must be a memory item id" });
    const done = await c.get("services").memory.done(nodeId.value);
    if (done.ok) return c.json({ item: done.item });
    if (done.reason === "not-found")
      return problem(c, { kind: "not-found", what: `memory item ${nodeId.value}` });
    return problem(c, { kind: "invalid", field: "status", reason: "only an active task can be marked done" });
  })
  .post("/:id/:action{archive|restore}", async (c) => {
    const nodeId = validate(id, c.req.param("id"));
    if (!nodeId.ok) return problem(c, { kind: "invalid", field: "id", reason: "must be a memory item id" });
    const action = c.req.param("action") as "archive" | "restore";
    const done = await c.get("services").memory.changeStatus(nodeId.value, action);
    if (done.ok) return c.json({ item: done.item });
    if (done.reason === "not-found")
      return problem(c, { kind: "not-found", what: `memory item ${nodeId.value}` });
    return problem(c, {
      kind: "invalid",
      field: "status",
      reason:
        action === "archive"
          ? "only an active item can be archived"
          : "only an archived item can be restored",
    });
  })
  .post("/:id/move", jsonBody(MemoryMoveBody), async (c) => {
    const nodeId = validate(id, c.req.param("id"));
    if (!nodeId.ok) return problem(c, { kind: "invalid", field: "id", reason: "must be a memory item id" });
    const body = c.req.valid("json");
    const moved = await c.get("services").memory.move(nodeId.value, body.scope, body.confirmShared);
    return moved.ok ? c.json(moved.value) : problem(c, moved.error);
  })
  .post("/:id/forget", jsonBody(ForgetBody), async (c) => {
    const nodeId = validate(id, c.req.param("id"));
    if (!nodeId.ok) return problem(c, { kind: "invalid", field: "id", reason: "must be a memory item id" });
    if (c.req.valid("json").confirm !== nodeId.value)
      return problem(c, {
        kind: "invalid",
        field: "confirm",
        reason: "must repeat the item's id to forget it",
      });
    const forgotten = await c.get("services").memory.forget(nodeId.value);
    return forgotten
      ? c.json({ forgotten: nodeId.value })
      : problem(c, { kind: "not-found", what: `memory item ${nodeId.value}` });
  });
