// Kept collection sizes (migration 0210): kb_counts against the rows they count, through the
// import API and the store, and the size the retrieval pipeline reads from them.
import { env } from "cloudflare:workers";
import { D1ContextStore } from "@src/adapters/d1/d1-context-store";
import { filterSql } from "@src/adapters/d1/d1-filter";
import { D1KnowledgeStore } from "@src/adapters/d1/d1-knowledge-store";
import type { StoreFilter } from "@src/domain/retrieval/ports";
import { collectionScope, scopeKey } from "@src/domain/retrieval/scope-key";
import { describe, it } from "vitest";
import { api, createCollection, twoCollections, uniqueName, upload } from "../../support/knowledge-api";

const store = new D1ContextStore(env.DB);

type Counts = Record<string, { nodes: number; chars: number }>;

/** The counts `sql` selects for a collection scope (its ?1), by node type and collection column. */
async function countsOf(sql: string, collection: string): Promise<Counts> {
  const { results } = await env.DB.prepare(sql)
    .bind(collection)
    .all<{ node_type: string; collection: string; nodes: number; chars: number }>();
  return Object.fromEntries(
    results.map((r) => [`${r.node_type}/${r.collection}`, { nodes: r.nodes, chars: r.chars }]),
  );
}

/** kb_counts of a collection scope. */
const kept = (collection: string) =>
  countsOf("SELECT node_type, collection, nodes, chars FROM kb_counts WHERE scope_id = ?1", collection);

/** The same, counted from nodes. */
const counted = (collection: string) =>
  countsOf(
    `SELECT node_type, coalesce(collection, '') AS collection, count(*) AS nodes, sum(length(raw_text)) AS chars
     FROM nodes WHERE scope_type = 'collection' AND scope_id = ?1 AND status = 'active'
     GROUP BY node_type, coalesce(collection, '')`,
    collection,
  );

/** What size() answered before the kept counts: a count over nodes. */
async function sizeFromNodes(filter: StoreFilter) {
  const f = filterSql(filter, 1);
  const row = await env.DB.prepare(
    `SELECT count(*) AS count, coalesce(sum(length(n.raw_text)), 0) AS chars FROM nodes n WHERE ${f.where}`,
  )
    .bind(...f.params)
    .first<{ count: number; chars: number }>();
  return { count: row?.count ?? 0, tokens: row?.chars ?? 0 };
}

const ONE = "# 稻妻\n\n雷电将军是永恒的守护者。\n\n## 鸣神大社\n\n鸣神大社位于影向山顶。";
const TWO = "# 蒙德\n\n西风骑士团守护着蒙德城。\n\n阿贝多是首席炼金术士。\n\n可莉喜欢炸鱼。";

describe("kept collection counts", () => {
  it("equal the collection's rows after import, re-import, document delete and collection delete", async ({
    expect,
  }) => {
    const [a, b] = await twoCollections();
    await upload(a, [
      { name: "one.md", content: ONE },
      { name: "two.md", content: TWO },
    ]);
    await upload(b, [{ name: "one.md", content: ONE }]);
    expect((await kept(a))["passage/" + a]?.nodes).toBeGreaterThan(1);
    expect(await kept(a)).toEqual(await counted(a));
    expect(await kept(b)).toEqual(await counted(b));

    // Re-import with other text: the old version's rows leave the counts, the new ones enter.
    await upload(a, [{ name: "one.md", content: "# 新版本\n\n雷电将军换了新的说法。" }]);
    expect(await kept(a)).toEqual(await counted(a));
    // The same bytes again change nothing.
    await upload(a, [{ name: "two.md", content: TWO }]);
    expect(await kept(a)).toEqual(await counted(a));

    const listed = await new D1KnowledgeStore(env.DB).getCollection(a);
    const rows = await counted(a);
    expect(listed?.passages).toBe(rows[`passage/${a}`]?.nodes);
    expect(listed?.documents).toBe(rows[`document/${a}`]?.nodes);

    expect((await api(`/api/kb/collections/${a}/documents?source=one.md`, { method: "DELETE" })).status).toBe(
      200,
    );
    expect(await kept(a)).toEqual(await counted(a));
    expect((await api(`/api/kb/collections/${a}`, { method: "DELETE" })).status).toBe(200);
    expect(await kept(a)).toEqual({});
    // The other collection was never touched.
    expect(await kept(b)).toEqual(await counted(b));
  });

  it("follow status, type and scope changes of a row", async ({ expect }) => {
    const [a, b] = await twoCollections();
    await upload(a, [{ name: "two.md", content: TWO }]);
    const passage = await env.DB.prepare(
      "SELECT node_id FROM nodes WHERE scope_type = 'collection' AND scope_id = ?1 AND node_type = 'passage' LIMIT 1",
    )
      .bind(a)
      .first<{ node_id: string }>();
    const id = passage?.node_id ?? "";
    const update = (set: string) =>
      env.DB.prepare(`UPDATE nodes SET ${set} WHERE node_id = ?1`).bind(id).run();

    await update("status = 'archived'");
    expect(await kept(a)).toEqual(await counted(a));
    await update("status = 'active', raw_text = raw_text || '（补充）'");
    expect(await kept(a)).toEqual(await counted(a));
    await update(`scope_id = '${b}', collection = '${b}'`);
    expect(await kept(a)).toEqual(await counted(a));
    expect(await kept(b)).toEqual(await counted(b));
    await update("scope_type = 'chat', scope_id = 'qq:group:kb-counts'");
    expect(await kept(b)).toEqual({});
    expect(await kept("qq:group:kb-counts")).toEqual({});
  });

  it("size() from the kept counts answers what counting the rows answers", async ({ expect }) => {
    const [a, b] = await twoCollections();
    await upload(a, [
      { name: "one.md", content: ONE },
      { name: "two.md", content: TWO },
    ]);
    await upload(b, [{ name: "two.md", content: TWO }]);
    const filters: StoreFilter[] = [
      { scopes: [collectionScope(a)], nodeTypes: ["passage"], collections: [a] },
      { scopes: [collectionScope(a), collectionScope(b)], nodeTypes: ["passage"], collections: [a, b] },
      { scopes: [collectionScope(a), collectionScope(b)], nodeTypes: ["passage"], collections: [b] },
      { scopes: [collectionScope(a)], nodeTypes: ["passage", "section", "document"] },
      { scopes: [collectionScope(uniqueName())], nodeTypes: ["passage"] },
    ];
    for (const f of filters) expect(await store.size(f), JSON.stringify(f)).toEqual(await sizeFromNodes(f));
    // Other scopes are still counted from the rows.
    const chat = scopeKey("chat", "qq:group:none");
    expect(await store.size({ scopes: [chat], nodeTypes: ["memory"] })).toEqual({ count: 0, tokens: 0 });
  });

  it("the migration's backfill rebuilds the same counts", async ({ expect }) => {
    const a = uniqueName();
    await createCollection(a);
    await upload(a, [
      { name: "one.md", content: ONE },
      { name: "two.md", content: TWO },
    ]);
    const before = await kept(a);
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0210_"));
    const backfill = (migration?.queries ?? []).filter((q) => q.startsWith("INSERT INTO kb_counts"));
    expect(backfill.length).toBe(1);
    await env.DB.prepare("DELETE FROM kb_counts").run();
    for (const q of backfill) await env.DB.prepare(q).run();
    expect(await kept(a)).toEqual(before);
    expect(before).toEqual(await counted(a));
  });
});
