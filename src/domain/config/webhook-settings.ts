/**
 * The `webhook` section of the behaviour settings (docs/settings.md): how large and how old an
 * inbound request may be.
 */
import { z } from "zod";

/**
 * The longest replay window either webhook may be given. The chat object keeps its dedupe
 * records longer than this (durable-objects/inbox.ts), so a captured signed request replayed
 * inside the window is a duplicate and one replayed after it is stale: never a new event.
 */
export const MAX_REPLAY_WINDOW_SECONDS = 12 * 60 * 60;

export const WebhookSettingsSchema = z
  .object({
    maxBodyBytes: z
      .number()
      .int()
      .min(1024)
      .max(10 * 1024 * 1024),
    /** Accepted clock skew of X-Signature-Timestamp, against replay of captured requests. */
    maxSkewSeconds: z.number().int().min(30).max(MAX_REPLAY_WINDOW_SECONDS),
    /** Accepted distance of a OneBot event's `time` from now, against replay of captured events. */
    oneBotMaxAgeSeconds: z.number().int().min(30).max(MAX_REPLAY_WINDOW_SECONDS),
  })
  .strict();

export type WebhookSettings = z.infer<typeof WebhookSettingsSchema>;

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  maxBodyBytes: 256 * 1024,
  maxSkewSeconds: 600,
  oneBotMaxAgeSeconds: 600,
};
