// Runs in Node (not workerd): it reads the repository's sources. `npm run check` runs it. Every
// statement that reads the context store (`nodes`, `nodes_fts`) must build its visibility
// condition through the one read gate (docs/invariants.md#one-read-gate), or be listed here with
// the reason it need not: a reader that shows nothing to a chat turn, or whose caller applies
// the gate to every row it returns. A new reader that is neither fails this test, and so does an
// entry that no longer names a reader.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { messageReads, messageReadsOf, nodeReads, nodeReadsOf } from "../../scripts/lib/node-reads.mjs";

const root = path.resolve(import.meta.dirname, "../..");

/** What `scan` finds in a source file made of `lines`: each reader's owner and whether it is gated. */
const readersIn = (scan, lines) =>
  scan("src/adapters/d1/fixture.ts", lines.join("\n")).map((r) => [r.owner, r.gated]);

/**
 * The readers `reads` found, as `file#owner`, held against an allow-list: those outside the gate
 * and not on it, its entries that name no reader, and those read through the gate.
 */
function againstAllowList(reads, allowed) {
  const key = (r) => `${r.file}#${r.owner}`;
  const seen = new Set(reads.map(key));
  return {
    ungated: [...new Set(reads.filter((r) => !r.gated && !allowed[key(r)]).map(key))],
    stale: Object.keys(allowed).filter((k) => !seen.has(k)),
    gated: new Set(reads.filter((r) => r.gated).map(key)),
  };
}

const ALLOWED = {
  // By id: the authority every candidate is re-checked against.
  "src/adapters/d1/d1-context-store.ts#D1ContextStore.load":
    "by id; retrieve.ts `recheck` and knowledge-search.ts `readContext` pass every row through the gate",
  "src/adapters/d1/d1-memory-store.ts#D1MemoryStore.get":
    "by id; `forget` checks `scopeAllows` (the gate) before it answers or archives",
  "src/adapters/d1/d1-memory-store.ts#D1MemoryStore.load":
    "by id; recall-candidates.ts `loadVisible` keeps only the rows `recallVisible` (the gate) passes",
  "src/adapters/d1/d1-memory-updates.ts#supersedesEdge": "a write's existence check by id; returns no row",
  // Navigation from a node the gate already passed.
  "src/adapters/d1/d1-context-store.ts#D1ContextStore.children":
    "children of a node `readContext` passed; it passes each child through the gate",
  "src/adapters/d1/d1-context-store.ts#D1ContextStore.childrenOf":
    "families of hits the gate passed; parent-families.ts keeps children of the parent's scope and level only",
  "src/adapters/d1/d1-context-store.ts#D1ContextStore.neighbours":
    "siblings of hits the gate passed; retrieve.ts `expand` passes each through the gate",
  "src/adapters/d1/d1-context-store.ts#D1ContextStore.ancestors":
    "parents of a node `readContext` passed; it passes each through the gate",
  // Statement builders around the condition their gated caller passes.
  "src/adapters/d1/d1-collection-search.ts#collectionSearchSql":
    "wraps the `filterSql` condition searchCollections passes",
  "src/adapters/d1/d1-two-stage-sql.ts#twoStageSql":
    "wraps the `filterSql` conditions searchTwoStage passes; a family child shares its parent's scope and level",
  "src/adapters/d1/d1-collection-ranking.ts#ranked":
    "the FTS window of twoStageSql: ids and ranks, filtered there",
  "src/adapters/d1/d1-term-frequencies.ts#collectionFrequencies":
    "counts of knowledge rows per token (the relevance floor); no row leaves the statement",
  "src/adapters/d1/d1-term-frequencies.ts#scopeFrequencies":
    "counts of rows per token (the relevance floor); no row leaves the statement",
  // Owner and admin tools: the dashboard, the admin API and the CLI, behind the admin secret.
  "src/adapters/d1/d1-memory-admin.ts#D1MemoryAdmin.list": "the admin API's and dashboard's memory list",
  "src/adapters/d1/d1-summary-admin.ts#D1SummaryAdmin.page":
    "the owner's credential sweep of summaries; the API shows each only masked",
  "src/adapters/d1/d1-summary-admin.ts#D1SummaryAdmin.get": "the owner's credential sweep, before it erases",
  "src/adapters/d1/d1-chunked-deletes.ts#nodeErasure":
    "an admin's forget of one memory item or summary deletes it",
  "src/adapters/d1/d1-admin-stats.ts#D1AdminStats.stats": "the dashboard's counts",
  "src/adapters/d1/d1-session-export.ts#exportChatData":
    "a session export: the admin API, the CLI, and /session, which answers only in an admin's private chat",
  "src/adapters/d1/d1-chunked-deletes.ts#deleteNodes": "a session or person forget deletes rows",
  "src/adapters/d1/d1-memory-updates.ts#eraseStatements":
    "a person's /forget deletes one item of a writable scope and returns its id, never text",
  "src/adapters/d1/d1-person-forget.ts#previewForgetPerson": "a person forget's counts",
  "src/adapters/d1/owner-migrations/owner-plan-sql.ts#verifySql":
    "an owner migration's check of its own rows",
  "src/adapters/d1/owner-migrations/scope-migration-sql.ts#INSPECT_SQL": "an owner migration's plan",
  "src/adapters/d1/owner-migrations/sensitivity-backfill-sql.ts#BACKFILL_INSPECT_SQL":
    "an owner migration's plan",
  "src/adapters/d1/owner-migrations/private-origin-sql.ts#ORIGIN_INSPECT_SQL": "an owner migration's plan",
  // Maintenance: what it reads goes into derived caches or counts, never to a chat.
  "src/adapters/d1/d1-memory-decay.ts#dueTasks":
    "the cron's task expiry: ids and decay columns of tasks to archive, never text, never to a chat",
  "src/adapters/d1/d1-embedding-store.ts#D1EmbeddingStore.missing": "embeddings refresh: texts to embed",
  "src/adapters/d1/d1-embedding-store.ts#D1EmbeddingStore.stale": "embeddings refresh: vectors to replace",
  "src/adapters/d1/d1-embedding-store.ts#D1EmbeddingStore.unsynced": "embeddings refresh: vectors to upload",
  "src/adapters/d1/d1-embedding-store.ts#D1EmbeddingStore.collectGarbage": "embeddings cache sweep",
  "src/adapters/d1/d1-embedding-store.ts#D1EmbeddingStore.status": "embeddings counts for the admin",
  "src/adapters/d1/d1-embedding-store.ts#D1EmbeddingStore.vectorsOfNodes":
    "restatement check: vectors (never text) of the node ids a gated listing returned",
  "src/adapters/d1/d1-knowledge-store.ts#D1KnowledgeStore.replaceDocument": "a knowledge import's own rows",
  "src/adapters/d1/d1-knowledge-store.ts#D1KnowledgeStore.deleteDocument": "a knowledge removal's own rows",
  "src/adapters/d1/d1-knowledge-store.ts#D1KnowledgeStore.deleteCollection": "a knowledge removal's own rows",
  "src/adapters/d1/d1-knowledge-store.ts#D1KnowledgeStore.#sourceNodes": "a knowledge import's own rows",
  "src/adapters/d1/d1-knowledge-store.ts#DOCUMENT_SELECT": "the admin API's document list",
  "src/adapters/d1/d1-wide-chars-backfill.ts#wideCharsStep": "a cron backfill of knowledge rows' counts",
  // The dev wing exists only in local mode.
  "src/workers/dev/eval.routes.ts#evalRoutes": "local mode only (the evaluation)",
  "src/workers/dev/memory-bench.routes.ts#memoryBenchRoutes": "local mode only (benchmarks)",
  "src/workers/dev/turn-bench.routes.ts#turnBenchRoutes": "local mode only (benchmarks)",
};

test("every statement that reads nodes goes through the read gate or is allowed with a reason", () => {
  const { ungated, stale, gated } = againstAllowList(nodeReads(root), ALLOWED);
  assert.deepEqual(ungated, [], "statements reading nodes outside the gate, and not on the allow-list");
  assert.deepEqual(stale, [], "allow-list entries that name no reader");
  // The gated readers the chat turns depend on are recognised as gated (the scan works).
  for (const reader of [
    "src/adapters/d1/d1-memory-store.ts#D1MemoryStore.listActive",
    "src/adapters/d1/d1-memory-store.ts#D1MemoryStore.latestSummary",
    "src/adapters/d1/d1-keyword-index.ts#D1KeywordIndex.#searchScopes",
    "src/adapters/d1/d1-context-store.ts#D1ContextStore.readAll",
  ])
    assert.ok(gated.has(reader), `${reader} should read through the gate`);
});

test("filterSql, which gated readers call, builds its condition from the gate", () => {
  const text = readFileSync(path.join(root, "src/adapters/d1/d1-filter.ts"), "utf8");
  assert.match(text, /gateJson\(/);
  assert.match(text, /filterEntries\(/);
});

test("the scan catches a new reader outside the gate, in a method, a function or a constant", () => {
  const found = readersIn(nodeReadsOf, [
    "export class Store {",
    "  async leak(id) { return this.db.prepare(`SELECT raw_text FROM nodes WHERE node_id = ?`).bind(id).all(); }",
    "  async fine(scopes) { const g = gateCondition(scopes); return this.db.prepare(`SELECT * FROM nodes n WHERE ${g.sql}`); }",
    "}",
    "function fts(q) { return `SELECT rowid FROM nodes_fts WHERE nodes_fts MATCH ?`; }",
    "const ALL = 'SELECT * FROM   nodes';",
    "const gate = (s) => gateArms(s);",
    "function viaHelper(s) { return `SELECT * FROM nodes n WHERE ${gate(s)[0].sql}`; }",
    "// SELECT * FROM nodes in a comment is not a statement",
  ]);
  assert.deepEqual(found, [
    ["Store.leak", false],
    ["Store.fine", true],
    ["fts", false],
    ["ALL", false],
    ["viaHelper", true],
  ]);
});

// The message log has its own gate (src/adapters/d1/d1-message-gate.ts): a message its speaker
// marked private is served only to the chat it was said in. Every statement that reads the log's
// rows, FTS index or turn windows builds `messageGateSql`, or is listed with the reason it need not.
const MESSAGE_ALLOWED = {
  "src/adapters/d1/d1-message-keyword-index.ts#D1MessageKeywordIndex.#windows":
    "wraps the gated `filter` D1MessageKeywordIndex.search passes",
  "src/adapters/d1/d1-daily-summaries.ts#D1DailySummaries.dayMessages":
    "a summary is read by sibling chats: it reads `private_marked = 0` only, whatever the reader",
  "src/adapters/d1/d1-message-log.ts#D1MessageLog.#counts":
    "recounts a chat's rows per hour when D1 counts them again; no text leaves",
  "src/adapters/d1/d1-message-browser.ts#D1MessageBrowser.messages":
    "the dashboard's log of one chat, run by that chat's object over its own SQLite (or D1 before the move)",
  "src/adapters/d1/d1-session-export.ts#exportChatLog":
    "a session export's log, run by the chat's object: the admin API, the CLI, and /session, which answers only in an admin's private chat",
  "src/adapters/d1/d1-chat-forget.ts#forgetChat": "a session forget deletes rows",
  "src/adapters/d1/d1-chunked-deletes.ts#deleteMessages": "a session or person forget deletes rows",
  "src/adapters/d1/d1-person-forget.ts#chatsOfAccount": "a person forget's chat keys; no text leaves",
  "src/durable-objects/account-forget.ts#forgetAccountHere": "a person forget deletes their rows",
  "src/adapters/d1/d1-conversation-backfill.ts#D1ConversationBackfill.step":
    "a cron backfill of sessions and windows; windows blank marked neighbours in SQL (migrations/0290)",
  "src/adapters/d1/retention.ts#applyRetention": "retention deletes rows",
  "src/adapters/d1/d1-log-migration.ts#D1LogPages.page": "the owner's migration copies rows as they are",
  "src/adapters/d1/d1-log-migration.ts#D1LogPages.count": "counts; no text leaves",
  "src/adapters/d1/d1-log-migration.ts#D1LogMigrationLedger.discover": "counts per chat; no text leaves",
  "src/adapters/d1/d1-log-migration.ts#D1LogMigrationLedger.deletable": "counts per chat; no text leaves",
  "src/durable-objects/chat-log-schema.ts#CHAT_LOG_SCHEMA":
    "the log's own triggers and views: they build its indexes and serve no reader",
  "src/durable-objects/log-marks.ts#markedMessageIds":
    "the chat's own privacy marks on its own messages, by message id; no text leaves",
  "src/durable-objects/chat-log-counts-schema.ts#CHAT_LOG_COUNTS_SCHEMA":
    "the log's counting triggers and its one-time count; no text leaves",
  "src/durable-objects/log-counts.ts#LogCounts.#lastAt": "the time of the last message; no text leaves",
  "src/durable-objects/local-log.ts#LocalLog.clear": "a forget deletes the chat's rows",
  "src/durable-objects/local-log.ts#LocalLog.count": "counts; no text leaves",
  "src/durable-objects/local-log.ts#LocalLog.lastFrom":
    "the sender's own last message in this chat's log, read for a value its naming masks; no text leaves",
  "src/durable-objects/local-log.ts#LocalLog.rewriteSince":
    "rewrites this chat's rows to hide a value named afterwards; returns them only for D1's copy",
  "src/durable-objects/log-retention.ts#LogRetention.#delete": "retention deletes rows",
  "src/durable-objects/log-retention.ts#LogRetention.#anyBefore":
    "whether a row is older than a time; no text leaves",
  "src/durable-objects/log-import.ts#chatLogCount": "counts; no text leaves",
  "src/durable-objects/log-import.ts#lastSeq": "a seq; no text leaves",
  "src/durable-objects/log-import.ts#rollBackHome":
    "a rollback sends the chat's own rows to D1, the chat's other copy of its log",
  "src/workers/dev/turn-bench.routes.ts#turnBenchRoutes": "local mode only (benchmarks)",
  "src/adapters/d1/d1-log-sweep.ts#sweepD1LogPage":
    "the owner's credential sweep rewrites rows masked; only counts leave",
  "src/durable-objects/credential-sweep.ts#sweepCredentialsHere":
    "the owner's credential sweep rewrites this chat's rows masked; only counts leave",
};

test("every statement that reads the message log goes through its gate or is allowed with a reason", () => {
  const { ungated, stale, gated } = againstAllowList(messageReads(root), MESSAGE_ALLOWED);
  assert.deepEqual(ungated, [], "statements reading messages outside the gate, and not on the allow-list");
  assert.deepEqual(stale, [], "allow-list entries that name no reader");
  for (const reader of [
    "src/adapters/d1/d1-message-keyword-index.ts#D1MessageKeywordIndex.search",
    "src/adapters/d1/d1-message-store.ts#D1MessageStore.load",
    "src/adapters/d1/d1-message-store.ts#D1MessageStore.neighbours",
    "src/adapters/d1/d1-message-store.ts#D1MessageStore.readAll",
    "src/adapters/d1/d1-recent-messages.ts#D1RecentMessages.recent",
  ])
    assert.ok(gated.has(reader), `${reader} should read through the message gate`);
  const summaries = readFileSync(path.join(root, "src/adapters/d1/d1-daily-summaries.ts"), "utf8");
  assert.match(summaries, /recalled = 0 AND private_marked = 0/);
});

test("the scan catches a new reader of the message log outside its gate", () => {
  const found = readersIn(messageReadsOf, [
    "export class Log {",
    "  async leak(c) { return this.db.prepare(`SELECT text FROM messages m WHERE m.chat_key = ?`).bind(c).all(); }",
    "  async fine(c, r) { return this.db.prepare(`SELECT text FROM messages m WHERE ${messageGateSql('m', '?2')}`); }",
    "}",
    "const WINDOWS = 'SELECT rowid FROM message_windows_fts WHERE message_windows_fts MATCH ?';",
  ]);
  assert.deepEqual(found, [
    ["Log.leak", false],
    ["Log.fine", true],
    ["WINDOWS", false],
  ]);
});
