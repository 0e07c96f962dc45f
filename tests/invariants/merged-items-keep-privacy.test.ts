// Write-time merge keeps privacy (docs/invariants.md#nothing-said-in-a-shared-chat-reveals-private-material,
// docs/memory.md#write-time-merge), over real D1: a private item a restatement was merged into
// still never reaches a group's recall; nothing merges across scopes, even with identical text,
// nor into an item the writer may not read; a merge never lowers sensitivity.
import { env } from "cloudflare:workers";
import { D1EmbeddingStore } from "@src/adapters/d1/d1-embedding-store";
import { memoryContentHash } from "@src/adapters/d1/memory-content-hash";
import { LocalHashEmbedder } from "@src/adapters/local/local-hash-embedder";
import { restatementVectors } from "@src/composition/common/read-model-restatements";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { silentLogger } from "@src/domain/kernel/logger";
import { dream } from "@src/domain/memory/dreaming";
import { recalledText, recallMemory } from "@src/domain/memory/recall";
import { remember } from "@src/domain/memory/remember";
import type { RestatementVectors } from "@src/domain/memory/restatement-vectors";
import { turnScopes } from "@src/domain/memory/scope";
import { describe, type ExpectStatic, it } from "vitest";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { dreamTurn } from "../support/dream-turn";
import { memoryStore, newMemory, rememberRequest, seedMemory, speakingPerson, uid } from "../support/memory";

const T0 = Date.UTC(2026, 10, 1, 4);

const person = speakingPerson;

type Person = ReturnType<typeof person>;

async function say(
  p: Person,
  text: string,
  where: "priv" | "group",
  now: number,
  restatements: RestatementVectors | null = null,
) {
  const written = await remember(memoryStore(), rememberRequest(p, text, where, now), { restatements });
  if (!written.ok) throw new Error(JSON.stringify(written.error));
  return written.value[0];
}

async function groupRecall(p: Person, text: string, now: number) {
  const found = await recallMemory(
    { index: memoryStore() },
    {
      text,
      scopes: turnScopes(p.group),
      soft: true,
      limit: 20,
      now,
      halfLifeDays: 30,
      timeZone: "Asia/Shanghai",
    },
  );
  return found.map(recalledText).join("\n");
}

/**
 * Says `said`, then its restatement `restated`, in the person's private chat: checks the
 * restatement merged into the first item and left it private. The item's id.
 */
async function mergedInPrivate(expect: ExpectStatic, p: Person, said: string, restated: string) {
  const first = await say(p, said, "priv", T0);
  const again = await say(p, restated, "priv", T0 + 1000);
  expect(again?.decision).toBe("merge");
  expect(again?.item.nodeId).toBe(first?.item.nodeId);
  expect(again?.item.sensitivity).toBe("private");
  return first?.item.nodeId ?? "";
}

const row = (nodeId: string) =>
  env.DB.prepare("SELECT sensitivity, confidence, raw_text, provenance FROM nodes WHERE node_id = ?")
    .bind(nodeId)
    .first<{ sensitivity: string; confidence: number; raw_text: string; provenance: string }>();

describe("write-time merge keeps privacy", () => {
  it("a private item with a restatement merged in never reaches a group's recall", async ({ expect }) => {
    const p = person();
    const id = await mergedInPrivate(
      expect,
      p,
      "我喜欢听摇滚音乐和英国爵士乐",
      "我喜欢听摇滚音乐，英国爵士乐",
    );
    const merged = await row(id);
    expect(JSON.parse(merged?.provenance ?? "{}").messageIds).toEqual([`m${T0}`, `m${T0 + 1000}`]);
    expect(await groupRecall(p, "摇滚音乐 爵士乐", T0 + 2000)).not.toContain("摇滚");
  });

  it("never merges into an item the writer may not read: a group restatement of a private item is new", async ({
    expect,
  }) => {
    const p = person();
    const secret = await say(p, "我喜欢看恐怖电影和悬疑片", "priv", T0);
    const inGroup = await say(p, "我喜欢看恐怖电影、悬疑片", "group", T0 + 1000);
    expect(inGroup?.decision).toBe("insert");
    expect(inGroup?.item.nodeId).not.toBe(secret?.item.nodeId);
    const untouched = await row(secret?.item.nodeId ?? "");
    expect(JSON.parse(untouched?.provenance ?? "{}").messageIds).toEqual([`m${T0}`]);
    expect(untouched?.sensitivity).toBe("private");
  });

  it("with the model's vectors, a group paraphrase is new and the private item's vector is never read", async ({
    expect,
  }) => {
    const embedder = new LocalHashEmbedder(512);
    const knowledge = structuredClone(DEFAULT_SETTINGS.knowledge);
    const local = knowledge.embeddings.models.local;
    if (local) local.restatementCosine = 0.6;
    const real = restatementVectors(env.DB, embedder, knowledge);
    if (!real) throw new Error("the local model has a threshold: vectors take part");
    const asked: string[] = [];
    const vectors = { ...real, stored: (ids: readonly string[]) => (asked.push(...ids), real.stored(ids)) };
    const embedStored = async (text: string) => {
      const out = await embedder.embed([text]);
      if (!out.ok || !out.value[0]) throw new Error("embedding failed");
      await new D1EmbeddingStore(env.DB).put(
        embedder.model,
        [{ hash: await memoryContentHash(text), vector: out.value[0] }],
        T0,
      );
    };
    const p = person();
    const secret = await say(p, "我周末喜欢徒步和长跑", "priv", T0, vectors);
    await embedStored(secret?.item.text ?? "");
    // In the private chat the paraphrase merges: the vectors do take part.
    const mine = await say(p, "我周末很喜欢去徒步和长跑", "priv", T0 + 1000, vectors);
    expect(mine?.decision).toBe("merge");
    asked.length = 0;
    const inGroup = await say(p, "我周末很喜欢去徒步和长跑", "group", T0 + 2000, vectors);
    expect(inGroup?.decision).toBe("insert");
    expect(asked).not.toContain(secret?.item.nodeId);
    expect((await row(secret?.item.nodeId ?? ""))?.sensitivity).toBe("private");
    expect(await groupRecall(p, "徒步 长跑", T0 + 3000)).not.toContain("我周末喜欢");
  });

  it("nothing merges across scopes, even with identical text", async ({ expect }) => {
    const p = person();
    const [other] = await seedMemory([
      newMemory(`chat:qq:group:H${uid()}`, "我们决定周五发布新版", { kind: "decision", confidence: 0.6 }),
    ]);
    const here = await say(p, "我们决定周五发布新版", "group", T0);
    expect(here?.decision).toBe("insert");
    expect(here?.item.scope).toEqual({ type: "chat", id: p.group.session });
    expect((await row(other ?? ""))?.confidence).toBe(0.6);
  });

  it("a merge never lowers sensitivity, not even by the person's share marker", async ({ expect }) => {
    const p = person();
    const id = await mergedInPrivate(
      expect,
      p,
      "我喜欢吃四川火锅和重庆小面",
      "我喜欢吃四川火锅、重庆小面，可以告诉大家",
    );
    expect((await row(id))?.sensitivity).toBe("private");
    expect(await groupRecall(p, "四川火锅 重庆小面", T0 + 2000)).not.toContain("火锅");
  });

  it("dreaming merges a restatement in the private chat, and the group still never recalls it", async ({
    expect,
  }) => {
    const p = person();
    const dreamIn = (where: "priv" | "group", text: string, now: number) =>
      dream(
        {
          runId: `dream:${uid()}`,
          session: p[where].session,
          turns: [
            dreamTurn(text, {
              name: p.name,
              account: p.identity.account,
              messageId: `d${now}`,
              ts: now,
              identity: p.identity,
            }),
          ],
          now,
          useModel: false,
        },
        { model: new ScriptedChatModel([]), store: memoryStore(), logger: silentLogger, now: () => now },
      );
    await dreamIn("priv", "我喜欢听摇滚音乐和英国爵士乐", T0);
    const second = await dreamIn("priv", "我喜欢听摇滚音乐，英国爵士乐", T0 + 1000);
    expect(second.ok && second.value.inserted).toBe(0);
    const inGroup = await dreamIn("group", "我喜欢听摇滚音乐和英国爵士乐啊", T0 + 2000);
    expect(inGroup.ok && inGroup.value.duplicates).toBe(0);
    const items = await env.DB.prepare(
      "SELECT sensitivity, provenance FROM nodes WHERE node_type = 'memory' AND raw_text LIKE ? ORDER BY created_at",
    )
      .bind(`${p.name}%爵士乐%`)
      .all<{ sensitivity: string; provenance: string }>();
    expect(items.results.map((r) => r.sensitivity)).toEqual(["private", "public"]);
    expect(JSON.parse(items.results[0]?.provenance ?? "{}").messageIds).toEqual([`d${T0}`, `d${T0 + 1000}`]);
    const recalled = await groupRecall(p, "摇滚音乐 爵士乐", T0 + 3000);
    expect(recalled).not.toContain("英国爵士乐，");
    expect(recalled.split("\n").filter((t) => t.includes("爵士乐"))).toHaveLength(1);
  });
});
