/**
 * What the admin faces accept for memory items, one schema each for the API and the Memory
 * page: the list filters and an edit. An edit is a memory write like /remember: a credential
 * is refused, never stored.
 */
import { z } from "zod";
import { SENSITIVITIES } from "../../domain/memory/memory";
import { MEMORY_KINDS, parseScopeKey } from "../../domain/memory/scope";
import {
  CREDENTIAL_REFUSAL,
  looksLikeCredential,
  looksLikePersonalData,
  PERSONAL_DATA_REFUSAL,
} from "../../domain/memory/sensitivity";

export const shortText = z.string().trim().min(1).max(200);
export const page = {
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
    text: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .refine((text) => !looksLikeCredential(text), CREDENTIAL_REFUSAL)
      .refine((text) => !looksLikePersonalData(text), PERSONAL_DATA_REFUSAL),
    kind: z.enum(MEMORY_KINDS),
    importance: z.number().min(0).max(1),
    sensitivity: z.enum(SENSITIVITIES),
    portable: z.boolean(),
  })
  .partial()
  .strict()
  .refine((edit) => Object.keys(edit).length > 0, "names nothing to change");
