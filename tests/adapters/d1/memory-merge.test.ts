/**
 * A merged restatement over real D1 (docs/memory.md#write-time-merge): the update keeps the
 * item's id, text and search row, writes the raised confidence and the joined evidence, which
 * reads back with its sources, and changes nothing outside the commit's writable scopes nor
 * when the writing chat's storage is off.
 */
import { env } from "cloudflare:workers";
import type { MemoryEvidence } from "@src/domain/memory/memory";
import { joinEvidence, mergedConfidence } from "@src/domain/memory/merge";
import type { Scope } from "@src/domain/memory/scope";
import { describe, it } from "vitest";
import { memoryStore, newMemory, seedMemory, uid } from "../../support/memory";

const evidence = (session: string, id: string, runId: string): MemoryEvidence => ({
  session,
  messageIds: [id],
  account: "qq:user:U1",
  person: null,
  origin: "dream",
  runId,
});

async function mergeCommit(nodeId: string, writable: Scope, incoming: MemoryEvidence, from: MemoryEvidence) {
  return memoryStore().commit({
    runId: `merge:${uid()}`,
    chatKey: incoming.session,
    at: Date.now(),
    writable: [writable],
    inserts: [],
    supersede: [],
    archive: [],
    updates: [
      {
        nodeId,
        importance: 0.55,
        confidence: mergedConfidence(0.6, 0.6),
        evidence: joinEvidence(from, incoming),
      },
    ],
    candidates: [],
  });
}

describe("D1 memory merge", () => {
  it("keeps id, text and search row; writes confidence and joined evidence", async ({ expect }) => {
    const chat = `qq:private:${uid()}`;
    const scope: Scope = { type: "chat", id: chat };
    const first = evidence(chat, "m1", "r1");
    const word = `摇滚${uid()}`;
    const [id = ""] = await seedMemory([
      newMemory(`chat:${chat}`, `小明喜欢${word}音乐`, { confidence: 0.6, evidence: first }),
    ]);
    const report = await mergeCommit(id, scope, evidence(chat, "m2", "r2"), first);
    expect(report.ok && report.value.updated).toBe(1);
    const item = await memoryStore().get(id);
    expect(item).toMatchObject({
      nodeId: id,
      text: `小明喜欢${word}音乐`,
      confidence: 0.84,
      importance: 0.55,
    });
    expect(item?.evidence?.messageIds).toEqual(["m1", "m2"]);
    expect(item?.evidence?.sources?.map((s) => s.runId)).toEqual(["r1", "r2"]);
    const hits = await memoryStore().search({
      text: word,
      scopes: [{ ...scope, sensitivities: ["public", "private", "secret_like"] }],
      limit: 5,
    });
    expect(hits.map((h) => h.nodeId)).toEqual([id]);
  });

  it("changes nothing of an item outside the commit's writable scopes", async ({ expect }) => {
    const chat = `qq:group:${uid()}`;
    const first = evidence(chat, "m1", "r1");
    const [id = ""] = await seedMemory([
      newMemory(`chat:${chat}`, "群规：周五发布", { confidence: 0.6, evidence: first }),
    ]);
    const elsewhere: Scope = { type: "chat", id: `qq:group:${uid()}` };
    const report = await mergeCommit(id, elsewhere, evidence(elsewhere.id, "m9", "r9"), first);
    expect(report.ok && report.value.updated).toBe(0);
    const row = await env.DB.prepare("SELECT confidence, provenance FROM nodes WHERE node_id = ?")
      .bind(id)
      .first();
    expect(row?.confidence).toBe(0.6);
    expect(JSON.parse(String(row?.provenance)).messageIds).toEqual(["m1"]);
  });

  it("changes nothing when the writing chat's storage is off", async ({ expect }) => {
    const chat = `qq:private:${uid()}`;
    const first = evidence(chat, "m1", "r1");
    const [id = ""] = await seedMemory([
      newMemory(`chat:${chat}`, "小明喜欢爬山", { confidence: 0.6, evidence: first }),
    ]);
    await env.DB.prepare(
      "INSERT INTO chat_sessions (chat_key, session_id, cluster_id, store_enabled, created_at, updated_at) VALUES (?, ?, ?, 0, 0, 0)",
    )
      .bind(chat, `s_${uid()}`, `c_${uid()}`)
      .run();
    const report = await mergeCommit(id, { type: "chat", id: chat }, evidence(chat, "m2", "r2"), first);
    expect(report.ok && report.value.updated).toBe(0);
    expect((await memoryStore().get(id))?.evidence?.messageIds).toEqual(["m1"]);
  });
});
