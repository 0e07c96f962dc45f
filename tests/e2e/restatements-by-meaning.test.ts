/**
 * Restatements in other words through the signed QQ webhook and the chat object
 * (docs/memory.md#write-time-merge): with a read model whose restatement threshold is set, a
 * paraphrase of an embedded item merges and `/remember` says so; with none set, the same two
 * statements are two items, as before; a group paraphrase never merges into a private item.
 */
import { env } from "cloudflare:workers";
import { LocalHashEmbedder } from "@src/adapters/local/local-hash-embedder";
import { lexicalSimilarity, RESTATEMENT_THRESHOLDS } from "@src/domain/memory/restatement";
import { describe, it } from "vitest";
import { api } from "../support/knowledge-api";
import { uid } from "../support/memory";
import { storeSettings } from "../support/stored-settings";
import { inPlainPrivateChat } from "../support/turns";

const LOCAL = { provider: "local", model: "local-hash", version: "1-512", dims: 512, fusionWeight: 0 };

const underModel = (restatementCosine?: number) =>
  storeSettings(env, {
    knowledge: {
      embeddings: {
        models: { local: { ...LOCAL, ...(restatementCosine ? { restatementCosine } : {}) } },
        read: "local",
        write: ["local"],
        refreshPerRun: 0,
      },
    },
  });

/** The active items a private chat's writes keep (its own scope: identity is off). */
const memoryRows = async (user: string) =>
  (
    await env.DB.prepare(
      "SELECT raw_text AS text FROM nodes WHERE node_type = 'memory' AND status = 'active' AND scope_id = ?1",
    )
      .bind(`qq:private:${user}`)
      .all<{ text: string }>()
  ).results.map((r) => r.text);

async function embedEverything() {
  const res = await api("/api/embeddings/rebuild", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ limit: 500 }),
  });
  if (res.status !== 200) throw new Error(`rebuild: ${res.status} ${await res.text()}`);
}

/** The hashed model's cosine of two texts: the test sets its threshold just under the pair's. */
async function localCosine(a: string, b: string): Promise<number> {
  const out = await new LocalHashEmbedder(512).embed([a, b]);
  if (!out.ok) throw new Error("local embedder failed");
  const [x, y] = out.value;
  return (x ?? []).reduce((sum, v, i) => sum + v * (y?.[i] ?? 0), 0);
}

describe("restatements judged by the read model", () => {
  it("merges a paraphrase with a threshold set, keeps two items without one", async ({ expect }) => {
    const first = "我周末喜欢徒步和长跑";
    const again = "我周末很喜欢去徒步和长跑";
    const other = "我养了一只叫团子的猫";
    // Words alone keep these apart; only the model can join them.
    expect(lexicalSimilarity(first, again)).toBeLessThan(RESTATEMENT_THRESHOLDS.lexical);

    await underModel();
    // Both chats' speakers are named by the first four characters of their ids: the same name.
    const plain = `RVZZ${uid()}`;
    expect(await inPlainPrivateChat(plain, `/remember ${first}`)).toContain("记住了");
    await embedEverything();
    expect(await inPlainPrivateChat(plain, `/remember ${again}`)).toContain("记住了");
    expect(await memoryRows(plain)).toHaveLength(2);

    // The hashed model is no model of meaning: the threshold sits just under this pair's cosine
    // as the items are written (the speaker's name for 我), well above the unrelated statement's.
    const [a, b, c] = (await memoryRows(plain)).concat(other.replace("我", ""));
    const threshold = (await localCosine(a ?? "", b ?? "")) - 0.02;
    expect(threshold).toBeGreaterThan(0.5);
    expect(await localCosine(a ?? "", c ?? "")).toBeLessThan(threshold / 2);

    await underModel(threshold);
    const user = `RVZZ${uid()}`;
    expect(await inPlainPrivateChat(user, `/remember ${first}`)).toContain("记住了");
    await embedEverything();
    expect(await inPlainPrivateChat(user, `/remember ${again}`)).toContain("同一件事");
    expect(await memoryRows(user)).toHaveLength(1);
    // Something else entirely is still its own item.
    expect(await inPlainPrivateChat(user, `/remember ${other}`)).toContain("记住了");
    expect(await memoryRows(user)).toHaveLength(2);
  });
});
