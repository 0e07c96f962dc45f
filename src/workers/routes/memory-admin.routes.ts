/**
 * The admin API for memory items: list and filter, read, edit, archive, restore, forget
 * (confirmed by repeating the id), and the dreaming candidates with their decisions. Every
 * change is audited with the acting admin; bad input — and text holding a credential — is
 * refused before anything is written.
 */
import { Hono } from "hono";
import { z } from "zod";
import { memoryAdmin } from "../../composition/admin-services";
import { SENSITIVITIES } from "../../domain/memory/memory";
import { MEMORY_KINDS, parseScopeKey } from "../../domain/memory/scope";
import { CREDENTIAL_REFUSAL, looksLikeCredential } from "../../domain/memory/sensitivity";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { jsonBody } from "../json-body";
import { validate } from "./zod-problem";

const id = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, "must be a memory item id");
const shortText = z.string().trim().min(1).max(200);
const page = {
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
};

export const MemoryListQuery = z
  .object({
    scope: z
      .string()
      .transform((raw, ctx) => {
        const scope = parseScopeKey(raw);
        if (!scope) ctx.addIssue({ code: "custom", message: "must be a scope key like chat:qq:group:<id>" });
        return scope ?? z.NEVER;
      })
      .optional(),
    kind: z.enum(MEMORY_KINDS).optional(),
    sensitivity: z.enum(SENSITIVITIES).optional(),
    status: z.enum(["active", "archived", "superseded"]).optional(),
    chat: shortText.optional(),
    person: shortText.optional(),
    text: shortText.optional(),
    ...page,
  })
  .strict();

export const MemoryEditBody = z
  .object({
    // An admin's edit is a memory write like /remember: a credential is refused, never stored.
    text: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .refine((text) => !looksLikeCredential(text), CREDENTIAL_REFUSAL),
    kind: z.enum(MEMORY_KINDS),
    importance: z.number().min(0).max(1),
    sensitivity: z.enum(SENSITIVITIES),
    portable: z.boolean(),
  })
  .partial()
  .strict()
  .refine((edit) => Object.keys(edit).length > 0, "names nothing to change");

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
  .get("/", async (c) => {
    const q = validate(MemoryListQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    const { items, total } = await memoryAdmin(c.env).list(q.value);
    return c.json({ items, total, limit: q.value.limit, offset: q.value.offset });
  })
  .get("/candidates", async (c) => {
    const q = validate(CandidateQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    return c.json(await memoryAdmin(c.env).candidates(q.value));
  })
  .get("/:id", async (c) => {
    const nodeId = validate(id, c.req.param("id"));
    if (!nodeId.ok) return problem(c, { kind: "invalid", field: "id", reason: "must be a memory item id" });
    const item = await memoryAdmin(c.env).get(nodeId.value);
    return item ? c.json({ item }) : problem(c, { kind: "not-found", what: `memory item ${nodeId.value}` });
  })
  .patch("/:id", jsonBody(MemoryEditBody), async (c) => {
    const nodeId = validate(id, c.req.param("id"));
    if (!nodeId.ok) return problem(c, { kind: "invalid", field: "id", reason: "must be a memory item id" });
    const item = await memoryAdmin(c.env).edit(nodeId.value, c.req.valid("json"), {
      actor: c.get("admin").actor,
      at: Date.now(),
    });
    return item ? c.json({ item }) : problem(c, { kind: "not-found", what: `memory item ${nodeId.value}` });
  })
  .post("/:id/:action{archive|restore}", async (c) => {
    const nodeId = validate(id, c.req.param("id"));
    if (!nodeId.ok) return problem(c, { kind: "invalid", field: "id", reason: "must be a memory item id" });
    const action = c.req.param("action") as "archive" | "restore";
    const done = await memoryAdmin(c.env).changeStatus(nodeId.value, action, {
      actor: c.get("admin").actor,
      at: Date.now(),
    });
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
  .post("/:id/forget", jsonBody(ForgetBody), async (c) => {
    const nodeId = validate(id, c.req.param("id"));
    if (!nodeId.ok) return problem(c, { kind: "invalid", field: "id", reason: "must be a memory item id" });
    if (c.req.valid("json").confirm !== nodeId.value)
      return problem(c, {
        kind: "invalid",
        field: "confirm",
        reason: "must repeat the item's id to forget it",
      });
    const forgotten = await memoryAdmin(c.env).forget(nodeId.value, {
      actor: c.get("admin").actor,
      at: Date.now(),
    });
    return forgotten
      ? c.json({ forgotten: nodeId.value })
      : problem(c, { kind: "not-found", what: `memory item ${nodeId.value}` });
  });
