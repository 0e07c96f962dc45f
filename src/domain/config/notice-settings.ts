/**
 * The `notices` section of the behaviour settings (docs/decisions/0280-notices-to-the-owner.md):
 * when repeated model errors become a notice to the owner, and how far apart two messages to
 * the owner are at least.
 */
import { z } from "zod";

export const NoticeSettingsSchema = z
  .object({
    /** Failed model calls within `windowMinutes` that make a notice (one per provider and error kind). */
    modelErrors: z.number().int().min(1).max(1000),
    windowMinutes: z.number().int().min(1).max(1440),
    /** Least minutes between two messages to the owner; notices raised meanwhile wait for the next. */
    minIntervalMinutes: z.number().int().min(1).max(1440),
  })
  .strict();

export type NoticeSettings = z.infer<typeof NoticeSettingsSchema>;

/** Five failures in half an hour is a pattern, not a blip; at most one message per ten minutes. */
export const DEFAULT_NOTICE_SETTINGS: NoticeSettings = {
  modelErrors: 5,
  windowMinutes: 30,
  minIntervalMinutes: 10,
};
