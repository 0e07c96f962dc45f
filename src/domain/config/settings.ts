/**
 * Behaviour settings (docs/architecture.md#settings): one validated object built from embedded defaults, the
 * AKASHA_CONFIG var and the D1 `settings` row, merged in that order. An invalid result is
 * refused whole with a message naming the field — never half-applied.
 */
import { z } from "zod";
import { isOneToOne } from "../chat/chat-address";
import { err, ok, type Result } from "../kernel/result";
import { issueData, type ValidationIssue } from "../kernel/validation-issue";
import { BackfillSettingsSchema, DEFAULT_BACKFILL_SETTINGS } from "./backfill-settings";
import { CalendarSettingsSchema, DEFAULT_CALENDAR_SETTINGS } from "./calendar-settings";
import { DashboardSettingsSchema, DEFAULT_DASHBOARD_SETTINGS } from "./dashboard-settings";
import { DEFAULT_IDENTITY_SETTINGS, IdentitySettingsSchema } from "./identity-settings";
import { DEFAULT_MEMORY_DECAY_SETTINGS, MemoryDecaySettingsSchema } from "./memory-decay-settings";
import { DEFAULT_NOTICE_SETTINGS, NoticeSettingsSchema } from "./notice-settings";
import { DEFAULT_PRIVACY_SETTINGS, PrivacySettingsSchema } from "./privacy-settings";
import { DEFAULT_QUERY_REWRITE_SETTINGS, QueryRewriteSettingsSchema } from "./query-rewrite-settings";
import { DEFAULT_SPEND_SETTINGS, SpendSettingsSchema } from "./spend-settings";
import { DEFAULT_SUMMARY_SETTINGS, SummarySettingsSchema } from "./summary-settings";

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
    historyRecall: z.number().int().min(0).max(50),
    /** Prompt budget for the mandatory block and recall, in estimated tokens. */
    contextTokenBudget: z.number().int().min(256).max(200_000),
    maxToolRounds: z.number().int().min(0).max(8),
    maxReplyChars: z.number().int().min(50).max(4000),
    maxOutputTokens: z.number().int().min(32).max(8192),
  })
  .strict();

/**
 * The longest replay window either webhook may be given. The chat object keeps its dedupe
 * records longer than this (durable-objects/inbox.ts), so a captured signed request replayed
 * inside the window is a duplicate and one replayed after it is stale: never a new event.
 */
export const MAX_REPLAY_WINDOW_SECONDS = 12 * 60 * 60;

const WebhookSchema = z
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

const OutboxSchema = z
  .object({
    flushIntervalMs: z.number().int().min(100).max(60_000),
    flushBatchRows: z.number().int().min(1).max(500),
  })
  .strict();

const MemoryRetrievalSchema = z
  .object({
    /**
     * Soft scope (docs/memory.md#soft-scope): recall draws from every scope's public, portable items as well
     * as the turn's own scopes. Off = hard scope (the cascade only). Run `npm run akasha --
     * sensitivity-backfill` before turning it on over data written before sensitivity tags.
     */
    softScope: z.boolean(),
    /** Memory items recalled automatically per turn (0 = no automatic memory recall). */
    recallLimit: z.number().int().min(0).max(50),
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
    decay: MemoryDecaySettingsSchema,
  })
  .strict();
const RetrievalProfileSchema = z
  .object({
    /** Items returned, neighbour expansion included. */
    limit: z.number().int().min(1).max(50),
    /** Estimated tokens of all returned text. */
    tokenBudget: z.number().int().min(50).max(50_000),
    /** Candidates fetched from each index before fusion. */
    candidates: z.number().int().min(5).max(500),
    /** Share of query tokens a hit must contain (0 = none). */
    minCoverage: z.number().min(0).max(1),
    /**
     * Share of the IDF weight of the identifiers (Latin words of ≥ 3 letters) the asking turn names
     * that some candidate must hold (0 = none): below it, nothing is returned. Judged only when
     * those identifiers carry at least a quarter of the question's weight (FLOOR_NAME_SHARE;
     * docs/decisions/0010-relevance-floor-judges-identifiers.md).
     */
    relevanceFloor: z.number().min(0).max(1),
    /**
     * Hint sharpness (0 = plain hint list): a hit whose title or heading the query names ranks up
     * by (max(share of the turn the name covers, the name's IDF specificity) × ½ per earlier
     * turn) ^ sharpness, so generic headings in long questions or earlier turns barely move.
     * Off by default: docs/decisions/0004-hint-sharpness-off-by-default.md.
     */
    hintSharpness: z.number().min(0).max(8),
    /**
     * Fielded re-scoring: weight of a content word in the heading path against a body match (0 = off;
     * docs/decisions/0009-fielded-ranking-where-documents-have-headings.md).
     */
    headingWeight: z.number().min(0).max(50),
    /**
     * Weight of the document-evidence list in the fielded ranking (a page with several matching
     * sections ranks up; 0 = off). Off by default: it won on the questions it was designed from
     * and lost on a set written apart from them
     * (docs/decisions/0023-document-evidence-off-sections-at-half-weight.md).
     */
    documentEvidence: z.number().min(0).max(4),
    /** Collections whose whole text fits this many tokens are returned whole (0 = never). */
    readWholeTokens: z.number().int().min(0).max(50_000),
    /** Above this many passages, search picks documents/sections first, then passages inside them. */
    twoStageAbove: z.number().int().min(0).max(10_000_000),
    /** Neighbouring passages added on each side of the first `expandHits` hits. */
    neighbours: z.number().int().min(0).max(5),
    expandHits: z.number().int().min(0).max(50),
    /**
     * A hit under a section/document of at most this many tokens returns that whole parent (0 = never;
     * docs/decisions/0001-parent-expansion-returns-short-parents-whole.md).
     */
    parentTokens: z.number().int().min(0).max(20_000),
    /** Hits per document at most (0 = no cap). */
    perRoot: z.number().int().min(0).max(50),
    /** Rerank with the configured reranker (Workers AI only). */
    rerank: z.boolean(),
  })
  .strict();

const EmbeddingModelSchema = z
  .object({
    provider: z.enum(["local", "workers-ai", "openai-compatible"]),
    /** Provider model id, e.g. @cf/baai/bge-m3; `local-hash` for the local embedder. */
    model: z.string().min(1).max(200),
    /** Bump when vectors of the same model stop being comparable. */
    version: z.string().min(1).max(40),
    dims: z.number().int().min(8).max(1536),
    /** OpenAI-compatible endpoint (the key is the EMBEDDING_API_KEY secret). */
    baseUrl: z.string().url().optional(),
    /**
     * Instruction put before queries (never passages) for models trained with one, e.g. bge-*-zh's
     * "为这个句子生成表示以用于检索相关文章：" (OpenAI-compatible endpoints only; bge-m3 needs none).
     */
    queryPrefix: z.string().max(200).optional(),
    /** Weight of this model's kNN ranking in rank fusion with bm25 (0 = keep vectors, do not search them). */
    fusionWeight: z.number().min(0).max(5).optional(),
    /**
     * The weight knowledge search and knowledge auto-recall fuse this model at, when it differs
     * from memory recall's `fusionWeight`; unset = `fusionWeight`
     * (docs/decisions/0261-local-model-fused-for-memory-not-knowledge.md).
     */
    knowledgeFusionWeight: z.number().min(0).max(5).optional(),
    /**
     * The cosine of this model at or above which a new memory statement restates an item of its
     * scope and merges into it; unset = this model's vectors take no part and restatements are
     * judged by words (docs/decisions/0460-restatements-judged-by-the-read-model.md).
     */
    restatementCosine: z.number().min(0.5).max(1).optional(),
    /** Name of the Vectorize binding holding this model's index; none = brute force over D1. */
    vectorBinding: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]*$/)
      .optional(),
  })
  .strict();

const KnowledgeSchema = z
  .object({
    /** Collections every chat may read ("*" = all). */
    collections: z.array(z.string().min(1).max(64)),
    /** Per-chat override: chat key → readable collections. */
    chatCollections: z.record(z.string(), z.array(z.string().min(1).max(64))),
    /** Defaults of new collections. */
    chunkSize: z.number().int().min(50).max(8000),
    chunkOverlap: z.number().int().min(0).max(2000),
    /** kb_search. */
    search: RetrievalProfileSchema,
    /** Automatic recall before every reply: off by default, stricter and smaller than kb_search. */
    autoRecall: RetrievalProfileSchema.extend({ enabled: z.boolean() }).strict(),
    embeddings: z
      .object({
        models: z.record(z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/), EmbeddingModelSchema),
        /** The model searches use; null = FTS only. Switching models = backfill, then flip this. */
        read: z.string().nullable(),
        /** Models every new node is embedded with (dual write during a switch). */
        write: z.array(z.string()),
        /** Hashes embedded right after an import; the rest by `embeddings rebuild` or the cron. */
        refreshPerRun: z.number().int().min(0).max(100_000),
      })
      .strict(),
    /**
     * `local` = the deterministic lexical reranker; `workers-ai` = a cross-encoder (needs the AI
     * binding); `openai-compatible` = a hosted cross-encoder's `POST {baseUrl}/rerank` (the key is
     * the RERANKER_API_KEY secret), given up after `timeoutMs`.
     */
    reranker: z
      .object({
        provider: z.enum(["local", "workers-ai", "openai-compatible"]),
        model: z.string().min(1),
        baseUrl: z.string().url().optional(),
        timeoutMs: z.number().int().min(100).max(60_000).optional(),
      })
      .strict()
      .refine((r) => r.provider !== "openai-compatible" || r.baseUrl !== undefined, {
        path: ["baseUrl"],
        message: "is required for the openai-compatible reranker",
      }),
  })
  .strict()
  .superRefine((k, ctx) => {
    const known = new Set(Object.keys(k.embeddings.models));
    if (k.embeddings.read !== null && !known.has(k.embeddings.read))
      ctx.addIssue({
        code: "custom",
        path: ["embeddings", "read"],
        message: `names no model in knowledge.embeddings.models`,
      });
    k.embeddings.write.forEach((w, i) => {
      if (!known.has(w))
        ctx.addIssue({
          code: "custom",
          path: ["embeddings", "write", i],
          message: "names no model in knowledge.embeddings.models",
        });
    });
  });

export const SettingsSchema = z
  .object({
    follow: FollowSchema,
    retention: RetentionSchema,
    turn: TurnSchema,
    webhook: WebhookSchema,
    outbox: OutboxSchema,
    identity: IdentitySettingsSchema,
    memory: MemorySchema,
    knowledge: KnowledgeSchema,
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

export type KnowledgeSettings = z.infer<typeof KnowledgeSchema>;
export type RetrievalProfile = z.infer<typeof RetrievalProfileSchema>;
export type EmbeddingModelSettings = z.infer<typeof EmbeddingModelSchema>;

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
  webhook: { maxBodyBytes: 256 * 1024, maxSkewSeconds: 600, oneBotMaxAgeSeconds: 600 },
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
    decay: DEFAULT_MEMORY_DECAY_SETTINGS,
  },
  knowledge: {
    collections: ["*"],
    chatCollections: {},
    chunkSize: 800,
    chunkOverlap: 80,
    search: {
      limit: 6,
      tokenBudget: 1500,
      candidates: 50,
      minCoverage: 0,
      relevanceFloor: 0.6,
      hintSharpness: 0,
      headingWeight: 3,
      documentEvidence: 0,
      // Off: a small collection read whole came back unranked and whole for any question, so
      // nothing was never found in it (docs/decisions/0260-small-collections-are-ranked.md).
      readWholeTokens: 0,
      // Off: forced on over the Vue docs it lost top-1 questions on every set written apart,
      // and at 100k passages its wider window was most of kb_search's time
      // (docs/decisions/0025-two-stage-search-off-by-default.md).
      twoStageAbove: 0,
      neighbours: 1,
      expandHits: 2,
      parentTokens: 800,
      perRoot: 3,
      rerank: false,
    },
    autoRecall: {
      enabled: false,
      limit: 2,
      tokenBudget: 400,
      candidates: 30,
      minCoverage: 0.5,
      relevanceFloor: 0.6,
      hintSharpness: 0,
      headingWeight: 3,
      documentEvidence: 0,
      readWholeTokens: 0,
      twoStageAbove: 0,
      neighbours: 0,
      expandHits: 0,
      parentTokens: 0,
      perRoot: 1,
      rerank: false,
    },
    embeddings: {
      models: {
        // Fused at weight 0: on every dev set the hashed n-gram vectors lowered bm25's ranking
        // (docs/decisions/0002-local-embedder-fused-at-weight-zero.md); they are still computed,
        // cached and searchable for experiments.
        local: { provider: "local", model: "local-hash", version: "1-512", dims: 512, fusionWeight: 0 },
        "bge-m3": {
          provider: "workers-ai",
          model: "@cf/baai/bge-m3",
          version: "1",
          dims: 1024,
          fusionWeight: 1,
          vectorBinding: "KNOWLEDGE_VECTORS",
        },
      },
      read: "local",
      write: ["local"],
      refreshPerRun: 2000,
    },
    reranker: { provider: "local", model: "@cf/baai/bge-reranker-base" },
  },
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
