/**
 * Drizzle mapping of the D1 tables in migrations/. Migrations are hand-written SQL (FTS5
 * virtual tables and triggers cannot be expressed in drizzle); tests compare this mapping
 * with the migrated database so the two cannot drift apart.
 */
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const chats = sqliteTable("chats", {
  chatKey: text("chat_key").primaryKey(),
  channel: text("channel").notNull(),
  targetType: text("target_type").notNull(),
  targetId: text("target_id").notNull(),
  title: text("title"),
  followed: integer("followed", { mode: "boolean" }).notNull().default(false),
  botPresent: integer("bot_present", { mode: "boolean" }).notNull().default(true),
  pushEnabled: integer("push_enabled", { mode: "boolean" }).notNull().default(true),
  retentionDays: integer("retention_days"),
  firstSeen: integer("first_seen").notNull(),
  lastSeen: integer("last_seen").notNull(),
});

export const messages = sqliteTable(
  "messages",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    transport: text("transport").notNull(),
    chatKey: text("chat_key").notNull(),
    messageId: text("message_id").notNull(),
    ts: integer("ts").notNull(),
    userId: text("user_id"),
    accountKey: text("account_key"),
    nick: text("nick"),
    text: text("text").notNull(),
    tokens: text("tokens").notNull(),
    rawJson: text("raw_json"),
    direction: text("direction", { enum: ["in", "out"] }).notNull(),
    recalled: integer("recalled", { mode: "boolean" }).notNull().default(false),
    replyTo: text("reply_to"),
    /** 0, 1 or 2: src/domain/history/privacy-mark.ts, migrations/0290. */
    privateMarked: integer("private_marked").$type<0 | 1 | 2 | 3>().notNull().default(0),
  },
  (t) => [
    uniqueIndex("messages_unique").on(t.transport, t.chatKey, t.messageId, t.ts),
    index("messages_chat_ts").on(t.chatKey, t.ts),
    index("messages_ts").on(t.ts),
  ],
);

export const modelUsage = sqliteTable("model_usage", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  dedupeKey: text("dedupe_key").notNull().unique(),
  chatKey: text("chat_key"),
  provider: text("provider").notNull(),
  model: text("model").notNull(),
  purpose: text("purpose").notNull(),
  promptTokens: integer("prompt_tokens"),
  completionTokens: integer("completion_tokens"),
  latencyMs: integer("latency_ms").notNull(),
  ok: integer("ok", { mode: "boolean" }).notNull(),
  errorKind: text("error_kind"),
  at: integer("at").notNull(),
});

export const auditLog = sqliteTable("audit_log", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  dedupeKey: text("dedupe_key").unique(),
  at: integer("at").notNull(),
  actor: text("actor"),
  action: text("action").notNull(),
  chatKey: text("chat_key"),
  target: text("target"),
  detail: text("detail").notNull().default("{}"),
});

export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: integer("updated_at").notNull(),
  updatedBy: text("updated_by"),
});

export const nodes = sqliteTable("nodes", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  nodeId: text("node_id").notNull().unique(),
  parentId: text("parent_id"),
  rootId: text("root_id"),
  path: text("path").notNull().default("[]"),
  position: integer("position").notNull().default(0),
  nodeType: text("node_type").notNull(),
  sourceType: text("source_type").notNull(),
  sourceId: text("source_id"),
  scopeType: text("scope_type").notNull(),
  scopeId: text("scope_id").notNull(),
  collection: text("collection"),
  kind: text("kind"),
  title: text("title"),
  rawText: text("raw_text").notNull(),
  retrievalText: text("retrieval_text").notNull(),
  retrievalTokens: text("retrieval_tokens").notNull(),
  summary: text("summary"),
  metadata: text("metadata").notNull().default("{}"),
  provenance: text("provenance").notNull().default("{}"),
  importance: real("importance").notNull().default(0.5),
  confidence: real("confidence").notNull().default(1),
  sensitivity: text("sensitivity").notNull().default("public"),
  sensitivitySource: text("sensitivity_source").notNull().default("default"),
  portable: integer("portable", { mode: "boolean" }).notNull().default(true),
  status: text("status").notNull().default("active"),
  contentHash: text("content_hash").notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const edges = sqliteTable("edges", {
  srcId: text("src_id").notNull(),
  dstId: text("dst_id").notNull(),
  edgeType: text("edge_type").notNull(),
  createdAt: integer("created_at").notNull(),
});

export const memoryCandidates = sqliteTable("memory_candidates", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  runId: text("run_id").notNull(),
  chatKey: text("chat_key").notNull(),
  origin: text("origin").notNull(),
  kind: text("kind").notNull(),
  text: text("text").notNull(),
  scopeType: text("scope_type").notNull(),
  scopeId: text("scope_id").notNull(),
  sensitivity: text("sensitivity").notNull(),
  sensitivitySource: text("sensitivity_source").notNull(),
  importance: real("importance"),
  decision: text("decision").notNull(),
  reason: text("reason"),
  nodeId: text("node_id"),
  targetNodeId: text("target_node_id"),
  evidence: text("evidence").notNull().default("{}"),
  createdAt: integer("created_at").notNull(),
});

export const persons = sqliteTable("persons", {
  personId: text("person_id").primaryKey(),
  displayName: text("display_name"),
  origin: text("origin", { enum: ["admin", "union"] }).notNull(),
  createdAt: integer("created_at").notNull(),
});

export const personAccounts = sqliteTable(
  "person_accounts",
  {
    accountKey: text("account_key").primaryKey(),
    personId: text("person_id"),
    source: text("source", { enum: ["admin", "union"] }).notNull(),
    unionKey: text("union_key"),
    linkedBy: text("linked_by"),
    linkedAt: integer("linked_at").notNull(),
  },
  (t) => [index("person_accounts_person").on(t.personId), index("person_accounts_union").on(t.unionKey)],
);

export const accountObservations = sqliteTable(
  "account_observations",
  {
    accountKey: text("account_key").notNull(),
    chatKey: text("chat_key").notNull(),
    userId: text("user_id").notNull(),
    unionKey: text("union_key"),
    displayName: text("display_name"),
    role: text("role"),
    firstSeen: integer("first_seen").notNull(),
    lastSeen: integer("last_seen").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountKey, t.chatKey] }),
    index("account_observations_union").on(t.unionKey),
    index("account_observations_chat").on(t.chatKey, t.lastSeen),
  ],
);

/** The message log's counts per chat and UTC hour (migration 0450; d1-admin-stats.ts says why hours). */
export const chatLogCounts = sqliteTable(
  "chat_log_counts",
  {
    chatKey: text("chat_key").notNull(),
    hour: integer("hour").notNull(),
    messages: integer("messages").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chatKey, t.hour] }), index("chat_log_counts_hour").on(t.hour)],
);

/** Per chat: its last message, and whether its object (1) or D1's triggers (0) keep its counts. */
export const chatLogSummary = sqliteTable("chat_log_summary", {
  chatKey: text("chat_key").primaryKey(),
  lastMessageAt: integer("last_message_at"),
  inObject: integer("in_object").notNull().default(0),
});
