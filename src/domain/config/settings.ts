/**
 * Behaviour settings (docs/architecture.md#settings): one validated object built from embedded defaults, the
 * AKASHA_CONFIG var and the D1 `settings` row, merged in that order. An invalid result is
 * refused whole with a message naming the field — never half-applied. Each section's schema and
 * defaults live beside this file, in its `*-settings.ts`.
 */
import { z } from "zod";
import { isOneToOne } from "../chat/chat-address";
import { err, ok, type Result } from "../kernel/result";
import { issueData, type ValidationIssue } from "../kernel/validation-issue";
import { BackfillSettingsSchema, DEFAULT_BACKFILL_SETTINGS } from "./backfill-settings";
import { CalendarSettingsSchema, DEFAULT_CALENDAR_SETTINGS } from "./calendar-settings";
import { DashboardSettingsSchema, DEFAULT_DASHBOARD_SETTINGS } from "./dashboard-settings";
import { DEFAULT_IDENTITY_SETTINGS, IdentitySettingsSchema } from "./identity-settings";
import { DEFAULT_KNOWLEDGE_SETTINGS, KnowledgeSettingsSchema } from "./knowledge-settings";
import { DEFAULT_MEMORY_SETTINGS, MemorySettingsSchema } from "./memory-settings";
import { DEFAULT_NOTICE_SETTINGS, NoticeSettingsSchema } from "./notice-settings";
import { DEFAULT_OUTBOX_SETTINGS, OutboxSettingsSchema } from "./outbox-settings";
import { DEFAULT_PRIVACY_SETTINGS, PrivacySettingsSchema } from "./privacy-settings";
import { DEFAULT_QUERY_REWRITE_SETTINGS, QueryRewriteSettingsSchema } from "./query-rewrite-settings";
import { DEFAULT_SPEND_SETTINGS, SpendSettingsSchema } from "./spend-settings";
import { DEFAULT_SUMMARY_SETTINGS, SummarySettingsSchema } from "./summary-settings";
import { DEFAULT_TURN_SETTINGS, TurnSettingsSchema } from "./turn-settings";
import { DEFAULT_WEBHOOK_SETTINGS, WebhookSettingsSchema } from "./webhook-settings";

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

export const SettingsSchema = z
  .object({
    follow: FollowSchema,
    retention: RetentionSchema,
    turn: TurnSettingsSchema,
    webhook: WebhookSettingsSchema,
    outbox: OutboxSettingsSchema,
    identity: IdentitySettingsSchema,
    memory: MemorySettingsSchema,
    knowledge: KnowledgeSettingsSchema,
    queryRewrite: QueryRewriteSettingsSchema,
    spend: SpendSettingsSchema,
    notices: NoticeSettingsSchema,
    summaries: SummarySettingsSchema,
    backfill: BackfillSettingsSchema,
    calendar: CalendarSettingsSchema,
    dashboard: DashboardSettingsSchema,
    privacy: PrivacySettingsSchema,
  })
  .strict();

export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  follow: { groups: [] },
  retention: { groupDays: 90, privateDays: 180 },
  turn: DEFAULT_TURN_SETTINGS,
  webhook: DEFAULT_WEBHOOK_SETTINGS,
  outbox: DEFAULT_OUTBOX_SETTINGS,
  identity: DEFAULT_IDENTITY_SETTINGS,
  memory: DEFAULT_MEMORY_SETTINGS,
  knowledge: DEFAULT_KNOWLEDGE_SETTINGS,
  queryRewrite: DEFAULT_QUERY_REWRITE_SETTINGS,
  spend: DEFAULT_SPEND_SETTINGS,
  notices: DEFAULT_NOTICE_SETTINGS,
  summaries: DEFAULT_SUMMARY_SETTINGS,
  backfill: DEFAULT_BACKFILL_SETTINGS,
  calendar: DEFAULT_CALENDAR_SETTINGS,
  dashboard: DEFAULT_DASHBOARD_SETTINGS,
  privacy: DEFAULT_PRIVACY_SETTINGS,
};

export type SettingsError = { kind: "invalid"; field: string; reason: string; issue?: ValidationIssue };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isPlainObject(value: unknown): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Objects merge key by key; arrays and scalars replace. Keys are defined, never assigned: a
 * layer's own "__proto__" key (JSON.parse keeps one) stays a key, which validation refuses,
 * instead of becoming the merged object's prototype.
 */
export function mergeSettings(base: unknown, override: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(override)) return override === undefined ? base : override;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const inherited = Object.hasOwn(base, key) ? base[key] : undefined;
    Object.defineProperty(out, key, {
      value: mergeSettings(inherited, value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** The dotted path of the first "__proto__" key in a layer, or null. */
function prototypeKeyIn(value: unknown, path: readonly string[] = []): string | null {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = prototypeKeyIn(item, [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  if (!isPlainObject(value)) return null;
  for (const [key, inner] of Object.entries(value)) {
    if (key === "__proto__") return [...path, key].join(".");
    const found = prototypeKeyIn(inner, [...path, key]);
    if (found) return found;
  }
  return null;
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
  for (const layer of layers) {
    const field = prototypeKeyIn(layer);
    if (field) return err({ kind: "invalid", field, reason: "is not a setting" });
  }
  const merged = layers.reduce<unknown>((acc, layer) => mergeSettings(acc, layer), DEFAULT_SETTINGS);
  // reportInput: the issue keeps the refused value, so issueData can say its type (never the value).
  const parsed = SettingsSchema.safeParse(merged, { reportInput: true });
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  const field = issue ? issue.path.join(".") || "(root)" : "(root)";
  const reason = issue
    ? issue.code === "unrecognized_keys"
      ? `unknown setting ${issue.keys.map((k) => `'${k}'`).join(", ")}`
      : issue.message
    : "is invalid";
  const data = issue ? issueData(issue) : undefined;
  return err({ kind: "invalid", field, reason, ...(data ? { issue: data } : {}) });
}

/** Whether messages of this chat are stored in the message log. Private chats always are. */
export function isStored(settings: Settings, chatKey: string, targetType: string): boolean {
  if (isOneToOne(targetType)) return true;
  return settings.follow.groups.some((entry) => entry === "*" || entry === chatKey);
}

/** Retention in days for a chat: its own override, else the default for its type. */
export function retentionDays(settings: Settings, targetType: string, override: number | null): number {
  if (override !== null) return override;
  return isOneToOne(targetType) ? settings.retention.privateDays : settings.retention.groupDays;
}
