/**
 * The `privacy` section of the behaviour settings: the accounts whose messages are never
 * recorded (docs/settings.md#privacy-leaving-a-person-out). Such a person is still answered when they address the
 * bot, but nothing they say reaches the message log, the chat object's short-term context, the
 * dream journal, the daily summaries or the OneBot backfill. Keys are checked with the parser
 * the rest of the system uses, so a garbled key is refused whole with the field named.
 */
import { z } from "zod";
import { parseAccountKey } from "../chat/chat-address";

const AccountKeyField = z.string().superRefine((raw, ctx) => {
  const parsed = parseAccountKey(raw);
  if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.error.reason });
});

export const PrivacySettingsSchema = z
  .object({
    /** Account keys (`qq:user:<openid>`, `onebot:user:<qq>`) never written to any log. */
    doNotRecord: z
      .array(AccountKeyField)
      .max(1000)
      .refine((list) => new Set(list).size === list.length, "lists an account twice"),
  })
  .strict();

export type PrivacySettings = z.infer<typeof PrivacySettingsSchema>;

export const DEFAULT_PRIVACY_SETTINGS: PrivacySettings = { doNotRecord: [] };
