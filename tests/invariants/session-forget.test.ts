// `/session forget` removes exactly one chat's rows everywhere (docs/sessions.md#forget): every
// table is counted before and after — messages and their FTS rows, the log's conversation
// sessions and turn windows with their FTS rows, memory and summary nodes with
// their FTS rows and edges, candidates, runs, observations, embeddings, vector sync rows and the
// vectors in the (fake) Vectorize index — and another chat's rows, including an embedding it
// shares by content hash, stay untouched.
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { D1EmbeddingStore } from "@src/adapters/d1/d1-embedding-store";
import { D1KnowledgeStore } from "@src/adapters/d1/d1-knowledge-store";
import { D1SessionRegistry } from "@src/adapters/d1/d1-session-registry";
import { LocalHashEmbedder } from "@src/adapters/local/local-hash-embedder";
import { VectorizeIndexAdapter } from "@src/adapters/vectorize/vectorize-index";
import { knowledgeMaintenance } from "@src/domain/knowledge/knowledge-maintenance";
import { memoryNodeId } from "@src/domain/memory/memory";
import { parseScopeKey, type Scope } from "@src/domain/memory/scope";
import { refreshEmbeddings } from "@src/domain/retrieval/embedding-cache";
import { describe, it } from "vitest";
import { FakeVectorize } from "../fakes/fake-vectorize";
import { memoryStore, newMemory, seedMemory, uid } from "../support/memory";
import { c2cBody, eventIdOf, postQq, turnDone } from "../support/qq-events";
import { registerChat, sessionAudit, sessionsApi } from "../support/sessions";

const DIMS = 8;
const embedder = new LocalHashEmbedder(DIMS);

async function fill(chat: string, tag: string, shared: string) {
  await registerChat(chat);
  const now = Date.now();
  for (let i = 0; i < 3; i++)
    await env.DB.prepare(
      `INSERT INTO messages (transport, chat_key, message_id, ts, user_id, nick, text, tokens, direction)
       VALUES ('qq', ?1, ?2, ?3, 'U1', 'nick', ?4, ?5, 'in')`,
    )
      // The third message two hours after the second: the log holds two conversation sessions.
      .bind(chat, `m${i}${tag}`, now + i + (i === 2 ? 7_200_000 : 0), `消息${i} ${tag}`, `x${tag} m${i}`)
      .run();
  const scope = `chat:${chat}`;
  const [first, second] = await seedMemory([
    newMemory(scope, `记忆一 ${tag}`),
    newMemory(scope, `记忆二 ${tag}`, { sensitivity: "private" }),
    // The same text in both chats: one embedding row, which must outlive one chat's forget.
    newMemory(scope, shared),
  ]);
  await memoryStore().commit({
    runId: `run-${tag}`,
    chatKey: chat,
    at: now,
    writable: [parseScopeKey(scope) as Scope],
    inserts: [],
    supersede: [],
    archive: [],
    updates: [],
    candidates: [
      {
        runId: `run-${tag}`,
        chatKey: chat,
        origin: "dream",
        kind: "fact",
        text: `候选 ${tag}`,
        scope: parseScopeKey(scope) as Scope,
        sensitivity: "public",
        sensitivitySource: "default",
        importance: 0.5,
        decision: "insert",
        reason: null,
        nodeId: first ?? null,
        targetNodeId: null,
        evidence: {},
      },
    ],
    summary: {
      nodeId: memoryNodeId(scope, `摘要 ${tag}`, tag),
      scope: parseScopeKey(scope) as Scope,
      text: `今天聊了摘要 ${tag}`,
      sensitivity: "public",
      sensitivitySource: "dream",
      evidence: {
        session: chat,
        messageIds: [],
        account: null,
        person: null,
        origin: "dream",
        runId: `run-${tag}`,
      },
    },
    run: { kind: "dream", turns: 3 },
  });
  await env.DB.prepare(
    "INSERT INTO edges (src_id, dst_id, edge_type, created_at) VALUES (?1, ?2, 'supersedes', ?3)",
  )
    .bind(second, first, now)
    .run();
  await env.DB.prepare(
    `INSERT INTO account_observations (account_key, chat_key, user_id, display_name, first_seen, last_seen)
     VALUES ('qq:user:U1', ?1, 'U1', 'nick', ?2, ?2)`,
  )
    .bind(chat, now)
    .run();
}

/** Rows of every table that holds a chat's data, for one chat. */
async function counts(chat: string, seqs: readonly number[]) {
  const count = async (sql: string, ...binds: unknown[]) =>
    (
      await env.DB.prepare(sql)
        .bind(...binds)
        .first<{ n: number }>()
    )?.n;
  const q = async (sql: string) =>
    (await count(sql, ...(sql.includes("?2") ? [chat, `chat:${chat}`] : [chat]))) ?? -1;
  const seqList = JSON.stringify(seqs);
  const word = `"x${chat.split(":").at(-1)}"`;
  const nodes = "SELECT node_id, seq, content_hash FROM nodes WHERE scope_type = 'chat' AND scope_id = ?1";
  return {
    messages: await q("SELECT count(*) AS n FROM messages WHERE chat_key = ?1"),
    // The FTS index's own rows for the chat's original message seqs.
    messagesFts: await count(
      "SELECT count(*) AS n FROM messages_fts_docsize WHERE id IN (SELECT value FROM json_each(?1))",
      seqList,
    ),
    messagesFtsMatch: await count("SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH ?1", word),
    conversationSessions: await q("SELECT count(*) AS n FROM conversation_sessions WHERE chat_key = ?1"),
    messageWindows: await count(
      "SELECT count(*) AS n FROM message_windows WHERE seq IN (SELECT value FROM json_each(?1))",
      seqList,
    ),
    messageWindowsFts: await count(
      "SELECT count(*) AS n FROM message_windows_fts_docsize WHERE id IN (SELECT value FROM json_each(?1))",
      seqList,
    ),
    messageWindowsFtsMatch: await count(
      "SELECT count(*) AS n FROM message_windows_fts WHERE message_windows_fts MATCH ?1",
      word,
    ),
    memory: await q(
      `SELECT count(*) AS n FROM nodes WHERE scope_type = 'chat' AND scope_id = ?1 AND node_type = 'memory'`,
    ),
    summaries: await q(
      `SELECT count(*) AS n FROM nodes WHERE scope_type = 'chat' AND scope_id = ?1 AND node_type = 'summary'`,
    ),
    nodesFts: await q(
      `SELECT count(*) AS n FROM nodes_fts WHERE nodes_fts MATCH 'scope_token : "' || hex(?2) || '"'`,
    ),
    edges: await q(`SELECT count(*) AS n FROM edges WHERE src_id IN (SELECT node_id FROM (${nodes}))`),
    candidates: await q("SELECT count(*) AS n FROM memory_candidates WHERE chat_key = ?1"),
    runs: await q("SELECT count(*) AS n FROM memory_runs WHERE chat_key = ?1"),
    observations: await q("SELECT count(*) AS n FROM account_observations WHERE chat_key = ?1"),
    vectorSync: await q(
      `SELECT count(*) AS n FROM vector_sync WHERE node_id IN (SELECT node_id FROM (${nodes}))`,
    ),
  };
}

describe("forget one chat", () => {
  it("removes that chat's rows in every table, FTS and vectors included, and nothing of another chat", async ({
    expect,
  }) => {
    const tagA = `a${uid()}`;
    const tagB = `b${uid()}`;
    const A = `qq:group:${tagA}`;
    const B = `qq:group:${tagB}`;
    const shared = `共同的话 ${uid()}`;
    await fill(A, tagA, shared);
    await fill(B, tagB, shared);

    const vectorize = new FakeVectorize(DIMS);
    const index = new VectorizeIndexAdapter(vectorize);
    const embeddings = new D1EmbeddingStore(env.DB);
    const refreshed = await refreshEmbeddings({ store: embeddings, embedder, index, now: Date.now }, 5000);
    expect(refreshed.ok).toBe(true);
    vectorize.settle();
    const slot = { key: "local", embedder, index, fusionWeight: 1 };
    const maintenance = knowledgeMaintenance({
      store: new D1KnowledgeStore(env.DB),
      embeddings,
      maintained: () => [slot],
      now: Date.now,
    });
    const registry = new D1SessionRegistry(env.DB, { afterRemoval: maintenance.afterRemoval });

    const idsOf = async (chat: string) =>
      (
        await env.DB.prepare(
          "SELECT node_id, content_hash FROM nodes WHERE scope_type = 'chat' AND scope_id = ?1",
        )
          .bind(chat)
          .all<{ node_id: string; content_hash: string }>()
      ).results;
    const nodesA = await idsOf(A);
    const nodesB = await idsOf(B);
    const embeddingCount = async (hashes: string[]) =>
      (
        await env.DB.prepare(
          "SELECT count(*) AS n FROM embeddings WHERE content_hash IN (SELECT value FROM json_each(?1))",
        )
          .bind(JSON.stringify(hashes))
          .first<{ n: number }>()
      )?.n;
    const totalEmbeddings = async () =>
      (await env.DB.prepare("SELECT count(*) AS n FROM embeddings").first<{ n: number }>())?.n ?? 0;

    const seqsOf = async (chat: string) =>
      (
        await env.DB.prepare("SELECT seq FROM messages WHERE chat_key = ?1").bind(chat).all<{ seq: number }>()
      ).results.map((r) => r.seq);
    const seqsA = await seqsOf(A);
    const seqsB = await seqsOf(B);
    const beforeA = await counts(A, seqsA);
    const beforeB = await counts(B, seqsB);
    expect(beforeA).toMatchObject({
      messages: 3,
      messagesFts: 3,
      messagesFtsMatch: 3,
      conversationSessions: 2,
      messageWindows: 3,
      messageWindowsFts: 3,
      messageWindowsFtsMatch: 3,
      memory: 3,
      summaries: 1,
      nodesFts: 4,
      edges: 1,
      candidates: 1,
      runs: 1,
      observations: 1,
      vectorSync: 4,
    });
    expect(beforeB).toEqual(beforeA);
    for (const n of [...nodesA, ...nodesB]) expect(vectorize.has(n.node_id)).toBe(true);
    const embeddingsBefore = await totalEmbeddings();
    const sharedHash = nodesA.find((n) =>
      nodesB.some((b) => b.content_hash === n.content_hash),
    )?.content_hash;
    expect(sharedHash).toBeDefined();

    const removed = await registry.forget(A);
    vectorize.settle();

    expect(await counts(A, seqsA)).toEqual({
      messages: 0,
      messagesFts: 0,
      messagesFtsMatch: 0,
      conversationSessions: 0,
      messageWindows: 0,
      messageWindowsFts: 0,
      messageWindowsFtsMatch: 0,
      memory: 0,
      summaries: 0,
      nodesFts: 0,
      edges: 0,
      candidates: 0,
      runs: 0,
      observations: 0,
      vectorSync: 0,
    });
    expect(await counts(B, seqsB)).toEqual(beforeB);
    for (const n of nodesA) expect(vectorize.has(n.node_id)).toBe(false);
    for (const n of nodesB) expect(vectorize.has(n.node_id)).toBe(true);
    // Three of A's four texts are its own; the shared one stays for B.
    const ownHashes = nodesA.map((n) => n.content_hash).filter((h) => h !== sharedHash);
    expect(await embeddingCount(ownHashes)).toBe(0);
    expect(await embeddingCount([sharedHash ?? ""])).toBe(1);
    expect(await totalEmbeddings()).toBe(embeddingsBefore - 3);

    expect(removed).toEqual({
      messages: 3,
      messagesFts: 3,
      conversationSessions: 2,
      messageWindows: 3,
      memory: 3,
      summaries: 1,
      otherNodes: 0,
      nodesFts: 4,
      edges: 1,
      candidates: 1,
      runs: 1,
      observations: 1,
      embeddings: 3,
      vectors: 4,
    });
  });

  it("the API refuses a forget that does not repeat the session, changes nothing, and audits both", async ({
    expect,
  }) => {
    const tag = `c${uid()}`;
    const chat = `qq:group:${tag}`;
    await fill(chat, tag, `独有 ${uid()}`);
    const seqs = (
      await env.DB.prepare("SELECT seq FROM messages WHERE chat_key = ?1").bind(chat).all<{ seq: number }>()
    ).results.map((r) => r.seq);
    const before = await counts(chat, seqs);
    const refused = await sessionsApi(`/${chat}/forget`, { confirm: "yes" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: "invalid", field: "yes" });
    expect(await counts(chat, seqs)).toEqual(before);

    const done = await sessionsApi<{ removed: { messages: number; memory: number }; message: string }>(
      `/${chat}/forget`,
      { confirm: chat },
    );
    expect(done.status).toBe(200);
    expect(done.body.removed).toMatchObject({ messages: 3, memory: 3 });
    expect(done.body.message).toContain("消息 3 条");
    expect(await counts(chat, seqs)).toMatchObject({ messages: 0, messagesFts: 0, memory: 0, nodesFts: 0 });
    const audit = (await sessionAudit("session.forget")).filter((r) => r.chat_key === chat);
    expect(audit.map((r) => r.detail.outcome)).toEqual(["invalid", "ok"]);
    expect(audit[1]?.detail).toMatchObject({ messages: 3, memory: 3, via: "api" });
  });
});

describe("forget and the OneBot backfill", () => {
  const registry = () => new D1SessionRegistry(env.DB, { afterRemoval: async () => {} });
  const progress = (chat: string) =>
    env.DB.prepare("SELECT status, done_reason FROM backfill_progress WHERE chat_key = ?1")
      .bind(chat)
      .first();

  it("closes a group's unfinished backfill and pre-empts one not yet started, so the history is not fetched again", async ({
    expect,
  }) => {
    const running = `onebot:group:${uid()}`;
    const unstarted = `onebot:group:${uid()}`;
    const qq = `qq:group:${uid()}`;
    for (const c of [running, unstarted, qq]) await registerChat(c);
    await env.DB.prepare(
      "INSERT INTO backfill_progress (chat_key, status, cursor, started_at, updated_at) VALUES (?1, 'running', '42', 1, 1)",
    )
      .bind(running)
      .run();
    for (const c of [running, unstarted, qq]) await registry().forget(c);
    expect(await progress(running)).toEqual({ status: "done", done_reason: "forgotten" });
    expect(await progress(unstarted)).toEqual({ status: "done", done_reason: "forgotten" });
    expect(await progress(qq)).toBeNull();
  });
});

describe("forget and the chat object", () => {
  it("clears the object's recent turns, dream journal and unflushed rows, so nothing of the chat comes back", async ({
    expect,
  }) => {
    const user = `U${uid()}`;
    const chat = `qq:private:${user}`;
    const stub = env.CHAT_SESSION.getByName(chat);
    for (const text of ["我喜欢爬山", "我住在杭州"]) {
      const body = c2cBody({ user, text });
      await postQq(body);
      await turnDone(chat, eventIdOf(body));
    }
    const before = await stub.stats();
    expect(before.recentTurns).toBeGreaterThan(0);
    expect(before.dreamPending).toBeGreaterThan(0);

    const done = await sessionsApi(`/${chat}/forget`, { confirm: chat });
    expect(done.status).toBe(200);
    // A flush after the forget finds nothing of the chat to write back.
    await runDurableObjectAlarm(stub);
    const after = await stub.stats();
    expect({ recentTurns: after.recentTurns, dreamPending: after.dreamPending }).toEqual({
      recentTurns: 0,
      dreamPending: 0,
    });
    const left = await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE chat_key = ?1")
      .bind(chat)
      .first();
    expect(left).toEqual({ n: 0 });
  });
});
