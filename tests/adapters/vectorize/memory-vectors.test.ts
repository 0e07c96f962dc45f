import { env } from "cloudflare:workers";
import { BruteForceVectorIndex } from "@src/adapters/d1/brute-force-vector-index";
import { D1EmbeddingStore } from "@src/adapters/d1/d1-embedding-store";
import { VectorizeIndexAdapter } from "@src/adapters/vectorize/vectorize-index";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import type { AccountKey } from "@src/domain/chat/chat-address";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import type { SenderIdentity } from "@src/domain/identity/sender-identity";
import { ok } from "@src/domain/kernel/result";
import { type RecallRequest, recallMemory } from "@src/domain/memory/recall";
import { parseScopeKey, type Scope, turnScopes } from "@src/domain/memory/scope";
import { refreshEmbeddings } from "@src/domain/retrieval/embedding-cache";
import type { Embedder, VectorIndex } from "@src/domain/retrieval/ports";
import type { ScopeKey } from "@src/domain/retrieval/scope-key";
import { type VectorSearchDeps, vectorsEnabled } from "@src/domain/retrieval/vector-search";
import { describe, it } from "vitest";
import { FakeVectorize } from "../../fakes/fake-vectorize";
import { memoryStore, newMemory, seedMemory, uid } from "../../support/memory";

/**
 * A tiny "semantic" embedder: one axis per concept, so texts about cats are close although
 * they share no word ("tabby" / "feline"). Deterministic, like a real model for this test.
 */
const CONCEPTS = [
  ["cat", "cats", "tabby", "feline", "kitten", "mochi"],
  ["coffee", "latte", "espresso", "beans"],
  ["office", "meeting", "desk"],
];
const DIMS = CONCEPTS.length + 1;

const conceptEmbedder: Embedder = {
  model: { id: "concept-test", version: "1", dims: DIMS },
  maxBatch: 50,
  async embed(texts) {
    return ok(
      texts.map((text) => {
        const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
        const v = CONCEPTS.map((c) => words.filter((w) => c.includes(w)).length);
        v.push(0.1);
        const norm = Math.hypot(...v);
        return v.map((x) => x / norm);
      }),
    );
  },
};

async function embedOne(text: string): Promise<number[]> {
  const r = await conceptEmbedder.embed([text], "query");
  if (!r.ok || !r.value[0]) throw new Error("embedding failed");
  return r.value[0];
}

const scope = (key: string) => parseScopeKey(key) as Scope;

/** A group chat of its own, the Vectorize fake and the recall ports over both. */
function setup(kind: "vectorize" | "brute-force" = "vectorize") {
  const group = `qq:group:G${uid()}`;
  const vectorize = new FakeVectorize(DIMS);
  const index: VectorIndex =
    kind === "vectorize"
      ? new VectorizeIndexAdapter(vectorize)
      : new BruteForceVectorIndex(env.DB, conceptEmbedder.model);
  const vectors: VectorSearchDeps = { embedder: conceptEmbedder, vectors: index, vectorWeight: 1 };
  const refresh = async () => {
    const report = await refreshEmbeddings(
      { store: new D1EmbeddingStore(env.DB), embedder: conceptEmbedder, index, now: Date.now },
      5000,
    );
    if (!report.ok) throw new Error(report.error.message);
    vectorize.settle();
    return report.value;
  };
  const request = (text: string, over: Partial<RecallRequest> = {}): RecallRequest => ({
    text,
    scopes: turnScopes({ session: group, identity: null }),
    soft: false,
    limit: 5,
    now: Date.now(),
    halfLifeDays: 30,
    timeZone: "Asia/Shanghai",
    ...over,
  });
  return { group, chatScope: `chat:${group}`, vectorize, index, vectors, refresh, request };
}

const texts = (r: readonly { item: { text: string } }[]) => r.map((x) => x.item.text);

describe("memory recall over D1 with vectors", () => {
  it.for(["vectorize", "brute-force"] as const)(
    "embeds memory in the refresh and recalls it by meaning alone (%s)",
    async (kind, { expect }) => {
      const t = setup(kind);
      const [tabby] = await seedMemory([
        newMemory(t.chatScope, `Alice adopted a tabby ${uid()}`),
        newMemory(t.chatScope, `Alice drinks espresso ${uid()}`),
      ]);
      const report = await t.refresh();
      expect(report.embedded).toBeGreaterThanOrEqual(2);
      if (kind === "vectorize") expect(t.vectorize.has(tabby ?? "")).toBe(true);

      const ftsOnly = await recallMemory({ index: memoryStore() }, t.request("feline pets"));
      expect(ftsOnly).toEqual([]);
      const found = await recallMemory(
        { index: memoryStore(), vectors: t.vectors },
        t.request("feline pets"),
      );
      expect(found[0]?.item.nodeId).toBe(tabby);
      expect(found[0]?.label).toBe("本聊天");
    },
  );

  it.for([false, true])(
    "drops another chat's private memory that a mislabelled vector returns (soft scope %s)",
    async (soft, { expect }) => {
      const t = setup();
      const other = `chat:qq:private:U${uid()}`;
      const [secret] = await seedMemory([
        newMemory(other, `Dave's kitten is called Mochi ${uid()}`, {
          sensitivity: "private",
          sensitivitySource: "dream",
        }),
      ]);
      const [own] = await seedMemory([newMemory(t.chatScope, `Alice adopted a tabby ${uid()}`)]);
      await t.refresh();
      // The index wrongly files the private item under this group's scope.
      t.vectorize.tamper(secret ?? "", { scope_type: "chat", scope_id: t.group });
      const raw = await t.index.query({
        scopes: [t.chatScope as ScopeKey],
        nodeTypes: ["memory"],
        embedding: await embedOne("cats"),
        limit: 10,
      });
      expect(raw.map((c) => c.nodeId)).toContain(secret);

      const found = await recallMemory(
        { index: memoryStore(), vectors: t.vectors },
        t.request("cats kitten", { soft }),
      );
      expect(found.map((r) => r.item.nodeId)).toContain(own);
      expect(found.map((r) => r.item.nodeId)).not.toContain(secret);
      expect(found.every((r) => r.scope === t.chatScope)).toBe(true);
    },
  );

  it.for([false, true])(
    "drops a person's private memory that a vector returns in that person's group turn (soft scope %s)",
    async (soft, { expect }) => {
      const t = setup();
      const person = `p${uid()}`;
      const alice: SenderIdentity = {
        enabled: true,
        account: `qq:user:A${uid()}` as AccountKey,
        personId: person,
        declared: true,
      };
      const [secret, open] = await seedMemory([
        newMemory(`person:${person}`, `Alice's kitten is called Mochi ${uid()}`, {
          sensitivity: "private",
          sensitivitySource: "explicit",
        }),
        newMemory(`person:${person}`, `Alice adopted a tabby ${uid()}`),
      ]);
      await t.refresh();
      const inGroup = turnScopes({ session: t.group, identity: alice });
      const found = await recallMemory(
        { index: memoryStore(), vectors: t.vectors },
        t.request("feline pets", { soft, scopes: inGroup }),
      );
      expect(found.map((r) => r.item.nodeId)).toContain(open);
      expect(found.map((r) => r.item.nodeId)).not.toContain(secret);
      const inPrivate = turnScopes({ session: `qq:private:${alice.account.slice(8)}`, identity: alice });
      const own = await recallMemory(
        { index: memoryStore(), vectors: t.vectors },
        t.request("feline pets", { soft, scopes: inPrivate }),
      );
      expect(own.map((r) => r.item.nodeId)).toContain(secret);
    },
  );

  it("drops an archived memory that a stale vector still returns, until the refresh removes it", async ({
    expect,
  }) => {
    const t = setup();
    const [forgotten, kept] = await seedMemory([
      newMemory(t.chatScope, `Alice adopted a tabby ${uid()}`),
      newMemory(t.chatScope, `Alice feeds the kitten at noon ${uid()}`),
    ]);
    await t.refresh();
    const archived = await memoryStore().commit({
      runId: `forget:${uid()}`,
      chatKey: t.group,
      at: Date.now(),
      writable: [scope(t.chatScope)],
      inserts: [],
      supersede: [],
      archive: [forgotten ?? ""],
      updates: [],
      candidates: [],
    });
    expect(archived.ok && archived.value.archived).toBe(1);
    expect(t.vectorize.has(forgotten ?? "")).toBe(true);

    const found = await recallMemory({ index: memoryStore(), vectors: t.vectors }, t.request("feline pets"));
    expect(found.map((r) => r.item.nodeId)).toEqual([kept]);

    await t.refresh();
    expect(t.vectorize.has(forgotten ?? "")).toBe(false);
  });

  it("recalls by full text alone when Vectorize fails", async ({ expect }) => {
    const t = setup();
    await seedMemory([
      newMemory(t.chatScope, `Alice likes feline pets ${uid()}`),
      newMemory(t.chatScope, `Alice adopted a tabby ${uid()}`),
    ]);
    await t.refresh();
    t.vectorize.query = async () => {
      throw new Error("Vectorize unavailable");
    };
    const ftsOnly = await recallMemory({ index: memoryStore() }, t.request("feline pets"));
    const found = await recallMemory({ index: memoryStore(), vectors: t.vectors }, t.request("feline pets"));
    expect(texts(found)).toEqual(texts(ftsOnly));
    expect(texts(found)).toHaveLength(1);
    expect(texts(found)[0]).toMatch(/^Alice likes feline pets/);
  });
});

describe("memory vectors in the chat object's services", () => {
  const services = () => chatObjectServices.create(env).memory;

  it("follow the embedding model the settings read, and its fusion weight", ({ expect }) => {
    const vectorsOf = services().vectors;
    if (!vectorsOf) throw new Error("memory vectors are not wired");
    // Defaults read the local hashed embedder at fusion weight 0: FTS only.
    expect(vectorsEnabled(vectorsOf(DEFAULT_SETTINGS.knowledge))).toBe(false);
    const embeddings = DEFAULT_SETTINGS.knowledge.embeddings;
    const local = {
      provider: "local" as const,
      model: "local-hash",
      version: "1-64",
      dims: 64,
      fusionWeight: 1,
    };
    const weighted = vectorsOf({
      ...DEFAULT_SETTINGS.knowledge,
      embeddings: { ...embeddings, models: { local }, read: "local", write: ["local"] },
    });
    expect(vectorsEnabled(weighted)).toBe(true);
    expect(weighted.embedder?.model.id).toBe("local-hash");
    expect(
      vectorsEnabled(vectorsOf({ ...DEFAULT_SETTINGS.knowledge, embeddings: { ...embeddings, read: null } })),
    ).toBe(false);
  });
});
