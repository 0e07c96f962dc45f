/**
 * Behaviour settings (DESIGN §4): one validated object built from embedded defaults, the
 * AKASHA_CONFIG var and the D1 `settings` row, merged in that order. An invalid result is
 * refused whole with a message naming the field — never half-applied.
 */
import { z } from "zod";
import { err, ok, type Result } from "../shared/result";
import { DEFAULT_IDENTITY_SETTINGS, IdentitySettingsSchema } from "./identity-settings";

const chatKeyPattern = /^[a-z][a-z0-9_-]*:(group|channel|private|dm):[^\s:]+$/;

const FollowSchema = z
  .object({
    /** Group and guild-channel chat keys whose messages are stored; "*" follows all. */
    groups: z.array(
      z.union([z.literal("*"), z.string().regex(chatKeyPattern, "must be a chat key like qq:group:<id>")]),
    ),
  })
  .strict();

const RetentionSchema = z
  .object({
    groupDays: z.number().int().min(1).max(3650),
    privateDays: z.number().int().min(1).max(3650),
  })
  .strict();

const TurnSchema = z
  .object({
    persona: z.string().min(1).max(4000),
    /** Recent turns kept in the chat object and put into every prompt. */
    recentTurns: z.number().int().min(0).max(100),
    /** Message-log hits recalled automatically per turn. */
    historyRecall: z.number().int().min(0).max(20),
    /** Prompt budget for the mandatory block and recall, in estimated tokens. */
    contextTokenBudget: z.number().int().min(256).max(200_000),
    maxToolRounds: z.number().int().min(0).max(8),
    maxReplyChars: z.number().int().min(50).max(4000),
    maxOutputTokens: z.number().int().min(32).max(8192),
  })
  .strict();

const WebhookSchema = z
  .object({
    maxBodyBytes: z
      .number()
      .int()
      .min(1024)
      .max(10 * 1024 * 1024),
    /** Accepted clock skew of X-Signature-Timestamp, against replay of captured requests. */
    maxSkewSeconds: z.number().int().min(30).max(86_400),
  })
  .strict();

const OutboxSchema = z
  .object({
    flushIntervalMs: z.number().int().min(100).max(60_000),
    flushBatchRows: z.number().int().min(1).max(500),
  })
  .strict();

const MemoryRetrievalSchema = z
  .object({
    /**
     * Soft scope (DESIGN §3.2): recall draws from every scope's public, portable items as well
     * as the turn's own scopes. Off = hard scope (the cascade only). Run `npm run akasha --
     * sensitivity-backfill` before turning it on over data written before sensitivity tags.
     */
    softScope: z.boolean(),
    /** Memory items recalled automatically per turn (0 = no automatic memory recall). */
    recallLimit: z.number().int().min(0).max(20),
    /** Most items `memory_search` returns. */
    searchLimit: z.number().int().min(1).max(50),
    /** Prompt budget of the automatic memory recall, in estimated tokens. */
    recallTokenBudget: z.number().int().min(0).max(20_000),
    /** Recency half-life of the importance × recency score. */
    recencyHalfLifeDays: z.number().min(1).max(3650),
  })
  .strict();

const MemoryMandatorySchema = z
  .object({
    /** Items at or above this importance (global and the turn's scopes) are in every prompt. */
    minImportance: z.number().min(0).max(1),
    maxItems: z.number().int().min(0).max(50),
    /** Budget of the mandatory block: persona, pinned items, latest summary, recent turns. */
    tokenBudget: z.number().int().min(128).max(100_000),
  })
  .strict();

const MemoryDreamingSchema = z
  .object({
    enabled: z.boolean(),
    /** Consolidate once this many turns are waiting… */
    afterTurns: z.number().int().min(1).max(500),
    /** …or once the chat has been quiet this long with any turn waiting. */
    idleMinutes: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60),
    /** Most turns read by one run; the rest wait for the next. */
    maxTurnsPerRun: z.number().int().min(1).max(500),
  })
  .strict();

const MemorySchema = z
  .object({
    retrieval: MemoryRetrievalSchema,
    mandatory: MemoryMandatorySchema,
    dreaming: MemoryDreamingSchema,
  })
  .strict();

export const SettingsSchema = z
  .object({
    follow: FollowSchema,
    retention: RetentionSchema,
    turn: TurnSchema,
    webhook: WebhookSchema,
    outbox: OutboxSchema,
    identity: IdentitySettingsSchema,
    memory: MemorySchema,
  })
  .strict();

export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  follow: { groups: [] },
  retention: { groupDays: 90, privateDays: 180 },
  turn: {
    persona:
      "你是 Akasha，一个住在 QQ 里、记性很好的助手。回答简洁、友好，用提问者的语言回答。" +
      "只依据给你的上下文陈述事实；不确定时直说。不要透露其他聊天或其他人的私事。",
    recentTurns: 12,
    historyRecall: 3,
    contextTokenBudget: 3000,
    maxToolRounds: 3,
    maxReplyChars: 1500,
    maxOutputTokens: 800,
  },
  webhook: { maxBodyBytes: 256 * 1024, maxSkewSeconds: 600 },
  outbox: { flushIntervalMs: 1000, flushBatchRows: 200 },
  identity: DEFAULT_IDENTITY_SETTINGS,
  memory: {
    retrieval: {
      softScope: false,
      recallLimit: 4,
      searchLimit: 8,
      recallTokenBudget: 600,
      recencyHalfLifeDays: 30,
    },
    mandatory: { minImportance: 0.8, maxItems: 6, tokenBudget: 2000 },
    dreaming: { enabled: true, afterTurns: 20, idleMinutes: 30, maxTurnsPerRun: 60 },
  },
};

export type SettingsError = { kind: "invalid"; field: string; reason: string };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isPlainObject(value: unknown): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Objects merge key by key; arrays and scalars replace. */
export function mergeSettings(base: unknown, override: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(override)) return override === undefined ? base : override;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) out[key] = mergeSettings(base[key], value);
  return out;
}

/** Parses one JSON layer (var or stored row). Empty text is an empty layer. */
export function parseSettingsLayer(
  text: string | null | undefined,
  source: string,
): Result<unknown, SettingsError> {
  if (text === null || text === undefined || text.trim() === "") return ok({});
  try {
    const value: unknown = JSON.parse(text);
    if (!isPlainObject(value))
      return err({ kind: "invalid", field: source, reason: "must be a JSON object" });
    return ok(value);
  } catch (e) {
    return err({ kind: "invalid", field: source, reason: `is not valid JSON (${(e as Error).message})` });
  }
}

/** Merges layers over the defaults and validates the whole; the first bad field is named. */
export function resolveSettings(...layers: unknown[]): Result<Settings, SettingsError> {
  const merged = layers.reduce<unknown>((acc, layer) => mergeSettings(acc, layer), DEFAULT_SETTINGS);
  const parsed = SettingsSchema.safeParse(merged);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  const field = issue ? issue.path.join(".") || "(root)" : "(root)";
  const reason = issue
    ? issue.code === "unrecognized_keys"
      ? `unknown setting ${issue.keys.map((k) => `'${k}'`).join(", ")}`
      : issue.message
    : "is invalid";
  return err({ kind: "invalid", field, reason });
}

/** Whether messages of this chat are stored in the message log. Private chats always are. */
export function isStored(settings: Settings, chatKey: string, targetType: string): boolean {
  if (targetType === "private" || targetType === "dm") return true;
  return settings.follow.groups.some((entry) => entry === "*" || entry === chatKey);
}

/** Retention in days for a chat: its own override, else the default for its type. */
export function retentionDays(settings: Settings, targetType: string, override: number | null): number {
  if (override !== null) return override;
  return targetType === "private" || targetType === "dm"
    ? settings.retention.privateDays
    : settings.retention.groupDays;
}
