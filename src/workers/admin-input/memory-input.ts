/**
 * What the admin faces accept for memory items, one schema each for the API and the Memory
 * page: the list filters and an edit. An edit is a memory write like /remember: a credential
 * is refused, never stored — read as a message is, the trained reader of values too.
 */
import { z } from "zod";
import { SENSITIVITIES } from "../../domain/memory/memory";
import { MEMORY_KINDS, parseScopeKey } from "../../domain/memory/scope";
import {
  CREDENTIAL_REFUSAL,
  looksLikePersonalData,
  looksLikeTypedCredential,
  PERSONAL_DATA_REFUSAL,
} from "../../domain/memory/sensitivity";

export const shortText = z.string().trim().min(1).max(200);
export const page = {
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
};

/** A scope key like chat:qq:group:<id>; which scopes may hold an item is the service's rule. */
const scopeKeyText = z
  .string()
  .max(300)
  .transform((raw, ctx) => {
    const scope = parseScopeKey(raw.trim());
    if (!scope) ctx.addIssue({ code: "custom", message: "must be a scope key like chat:qq:group:<id>" });
    return scope ?? z.NEVER;
  });

const memoryText = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .refine((text) => !looksLikeTypedCredential(text), CREDENTIAL_REFUSAL)
  .refine((text) => !looksLikePersonalData(text), PERSONAL_DATA_REFUSAL);

/**
 * An admin's new item (POST /api/memory, the Memory page's add form). `confirmShared` must be
 * true to put a private or secret item into a shared scope; only a real boolean counts.
 */
export const MemoryAddBody = z
  .object({
    scope: scopeKeyText,
    text: memoryText,
    kind: z.enum(MEMORY_KINDS),
    importance: z.number().min(0).max(1).default(0.6),
    sensitivity: z.enum(SENSITIVITIES).default("public"),
    confirmShared: z.boolean().default(false),
  })
  .strict();

/** Moving an item to another scope (POST /api/memory/:id/move, the Memory page's move form). */
export const MemoryMoveBody = z
  .object({ scope: scopeKeyText, confirmShared: z.boolean().default(false) })
  .strict();

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
    text: memoryText,
    kind: z.enum(MEMORY_KINDS),
    importance: z.number().min(0).max(1),
    sensitivity: z.enum(SENSITIVITIES),
    portable: z.boolean(),
    /** No decay and no expiry while true (docs/memory.md#decay-and-reinforcement). */
    keepForever: z.boolean(),
    /** A task's due time, UTC epoch milliseconds; null clears it. Only a task has one. */
    dueAt: z.number().int().min(0).max(8_640_000_000_000_000).nullable(),
  })
  .partial()
  .strict()
  .refine((edit) => Object.keys(edit).length > 0, "names nothing to change");
