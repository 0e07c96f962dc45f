import { env } from "cloudflare:workers";
import { LocalHashEmbedder } from "@src/adapters/local/local-hash-embedder";
import { createKnowledgeServices } from "@src/composition/common/knowledge-services";
import { DEFAULT_SETTINGS, type Settings } from "@src/domain/config/settings";
import { importFiles } from "@src/domain/knowledge/import-documents";
import { profileOptions, searchKnowledge } from "@src/domain/knowledge/knowledge-search";
import { describe, it } from "vitest";
import { FakeVectorize } from "../../fakes/fake-vectorize";
import { uniqueName } from "../../support/knowledge-api";

const encoder = new TextEncoder();

function settingsWith(read: string | null, vectorBinding?: string): Settings {
  const local = {
    provider: "local" as const,
    model: "local-hash",
    version: "1-64",
    dims: 64,
    ...(vectorBinding ? { vectorBinding } : {}),
  };
  return {
    ...DEFAULT_SETTINGS,
    knowledge: {
      ...DEFAULT_SETTINGS.knowledge,
      search: { ...DEFAULT_SETTINGS.knowledge.search, readWholeTokens: 0, parentTokens: 0, neighbours: 0 },
      embeddings: { models: { local }, read, write: read ? [read] : [], refreshPerRun: 1000 },
    },
  };
}

async function seed(settings: Settings, vectorize?: FakeVectorize) {
  const kb = createKnowledgeServices(
    vectorize ? ({ ...env, KNOWLEDGE_VECTORS: vectorize } as unknown as Env) : env,
    settings,
  );
  const a = uniqueName("va");
  const b = uniqueName("vb");
  for (const name of [a, b]) {
    await kb.store.createCollection(
      { name, title: null, description: null, chunkSize: 200, chunkOverlap: 0 },
      Date.now(),
    );
  }
  await importFiles(kb.importDeps, a, [
    { name: "wind.txt", bytes: encoder.encode("蒙德是风的国度，风神守护着自由。") },
    { name: "rock.txt", bytes: encoder.encode("璃月是岩的国度，岩神守护着契约。") },
    { name: "thunder.txt", bytes: encoder.encode("稻妻是雷的国度，雷神追求永恒。") },
  ]);
  await importFiles(kb.importDeps, b, [
    { name: "other.txt", bytes: encoder.encode("须弥是草的国度，草神守护着智慧。") },
  ]);
  return { kb, a, b };
}

const options = (settings: Settings) => profileOptions({ ...settings.knowledge.search, limit: 10 });

/** Searches collection `a` the way the knowledge tools do, ten results at most. */
const search = (kb: Awaited<ReturnType<typeof seed>>["kb"], a: string, settings: Settings, query: string) =>
  searchKnowledge(kb.retrieval, { query, collections: [a], options: options(settings) });

describe("retrieval with and without vectors", () => {
  it("searches with no embedding model at all (FTS only)", async ({ expect }) => {
    const settings = settingsWith(null);
    const { kb, a } = await seed(settings);
    expect(kb.retrieval.vectors).toBeNull();
    const result = await search(kb, a, settings, "岩神的契约");
    expect(result.items[0]?.text).toContain("璃月");
  });

  it("searches while the vector index is still empty", async ({ expect }) => {
    const settings = settingsWith("local", "KNOWLEDGE_VECTORS");
    const vectorize = new FakeVectorize(64);
    const { kb, a } = await seed(settings, vectorize);
    expect(vectorize.size).toBe(0);
    const result = await search(kb, a, settings, "雷神追求什么");
    expect(result.items[0]?.text).toContain("稻妻");
  });

  it("keeps working when the vector index throws", async ({ expect }) => {
    const settings = settingsWith("local", "KNOWLEDGE_VECTORS");
    const vectorize = new FakeVectorize(64);
    vectorize.query = async () => {
      throw new Error("Vectorize unavailable");
    };
    const { kb, a } = await seed(settings, vectorize);
    const result = await search(kb, a, settings, "风神");
    expect(result.items[0]?.text).toContain("蒙德");
  });

  it("drops Vectorize results whose node was archived or belongs to another scope", async ({ expect }) => {
    const settings = settingsWith("local", "KNOWLEDGE_VECTORS");
    const vectorize = new FakeVectorize(64);
    const { kb, a, b } = await seed(settings, vectorize);
    const reports = await kb.refresh(1000);
    expect(reports[0] && "upserted" in reports[0] ? reports[0].upserted : 0).toBeGreaterThanOrEqual(4);
    vectorize.settle();
    const ids = await env.DB.prepare(
      "SELECT node_id, scope_id, raw_text FROM nodes WHERE node_type = 'passage' AND scope_id IN (?1, ?2)",
    )
      .bind(a, b)
      .all<{ node_id: string; scope_id: string; raw_text: string }>();
    const thunder = ids.results.find((r) => r.raw_text.startsWith("稻妻"));
    const other = ids.results.find((r) => r.scope_id === b);
    if (!thunder || !other) throw new Error("seed failed");
    // The node is archived in D1, but the index has not caught up; and a vector of another
    // collection carries metadata that (wrongly) claims collection a.
    await env.DB.prepare("UPDATE nodes SET status = 'archived' WHERE node_id = ?1")
      .bind(thunder.node_id)
      .run();
    vectorize.tamper(other.node_id, { scope_id: a, collection: a });

    const raw = await kb.retrieval.vectors?.query({
      scopes: [`collection:${a}` as never],
      nodeTypes: ["passage"],
      collections: [a],
      embedding: new LocalHashEmbedder(64).embedOne("国度 守护"),
      limit: 10,
    });
    expect(raw?.map((c) => c.nodeId)).toEqual(expect.arrayContaining([thunder.node_id, other.node_id]));

    const result = await search(kb, a, settings, "国度 守护");
    const returned = result.items.map((i) => i.node.nodeId);
    expect(returned).not.toContain(thunder.node_id);
    expect(returned).not.toContain(other.node_id);
    expect(result.items.every((i) => i.node.scopeId === a && i.node.status === "active")).toBe(true);
    expect(result.dropped).toBeGreaterThanOrEqual(2);
  });

  it("removes vectors and embeddings of a deleted collection, dedupes embeddings by content hash", async ({
    expect,
  }) => {
    const settings = settingsWith("local", "KNOWLEDGE_VECTORS");
    const vectorize = new FakeVectorize(64);
    const { kb, a, b } = await seed(settings, vectorize);
    await kb.refresh(1000);
    vectorize.settle();
    const nodeIds = (
      await env.DB.prepare("SELECT node_id FROM nodes WHERE scope_id = ?1 AND node_type = 'passage'")
        .bind(a)
        .all<{ node_id: string }>()
    ).results.map((r) => r.node_id);
    expect(nodeIds.every((id) => vectorize.has(id))).toBe(true);
    const again = await kb.refresh(1000);
    expect(again[0]).toMatchObject({ embedded: 0, upserted: 0, done: true });

    const removed = await kb.store.deleteCollection(a);
    if (!removed) throw new Error("not deleted");
    await kb.afterRemoval(removed);
    vectorize.settle();
    expect(nodeIds.some((id) => vectorize.has(id))).toBe(false);
    const sync = await env.DB.prepare(
      "SELECT count(*) AS n FROM vector_sync WHERE node_id IN (SELECT value FROM json_each(?1))",
    )
      .bind(JSON.stringify(nodeIds))
      .first<{ n: number }>();
    expect(sync?.n).toBe(0);
    const left = await env.DB.prepare("SELECT count(*) AS n FROM nodes WHERE scope_id = ?1")
      .bind(b)
      .first<{ n: number }>();
    expect(left?.n).toBeGreaterThan(0);
    for (const q of vectorize.queries) expect(q.topK).toBeLessThanOrEqual(100);
  });
});
