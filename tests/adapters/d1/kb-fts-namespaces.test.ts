// Collections' token namespaces in nodes_fts and their document-frequency table (migration 0200).
import { env } from "cloudflare:workers";
import { D1KeywordIndex } from "@src/adapters/d1/d1-keyword-index";
import { memoryMatch } from "@src/domain/memory/memory-query";
import { collectionScope } from "@src/domain/retrieval/scope-key";
import { namespaced, namespaceTemplate } from "@src/domain/text/fts-namespace";
import { indexText, queryTokens } from "@src/domain/text/search-tokens";
import { describe, it } from "vitest";
import { api, createCollection, twoCollections, uniqueName, upload } from "../../support/knowledge-api";

const index = new D1KeywordIndex(env.DB);

const TEXT = [
  "稻妻的雷电将军是永恒的守护者。",
  "Use v-model on a component; app.config.errorHandler catches errors. Vue.js isn't React.",
  "鸣神大社位于影向山顶。",
].join("\n\n");

async function namespaceOf(collection: string): Promise<string> {
  const row = await env.DB.prepare("SELECT fts_ns FROM kb_collections WHERE name = ?1")
    .bind(collection)
    .first<{ fts_ns: string }>();
  if (!row?.fts_ns) throw new Error(`no namespace for ${collection}`);
  return row.fts_ns;
}

const ftsRows = async (match: string) =>
  (
    await env.DB.prepare("SELECT rowid AS seq FROM nodes_fts WHERE nodes_fts MATCH ?1 ORDER BY rowid")
      .bind(match)
      .all<{ seq: number }>()
  ).results.map((r) => r.seq);

const collectionSeqs = async (collection: string) =>
  (
    await env.DB.prepare(
      "SELECT seq FROM nodes WHERE scope_type = 'collection' AND scope_id = ?1 ORDER BY seq",
    )
      .bind(collection)
      .all<{ seq: number }>()
  ).results.map((r) => r.seq);

/** kb_fts_df of a namespace as the triggers keep it. */
async function dfTable(ns: string): Promise<Record<string, number>> {
  const { results } = await env.DB.prepare("SELECT token, df FROM kb_fts_df WHERE ns = ?1")
    .bind(ns)
    .all<{ token: string; df: number }>();
  return Object.fromEntries(results.map((r) => [r.token, r.df]));
}

/** The same counts recomputed from the collection's rows: rows holding each token, and all rows under "". */
async function dfFromNodes(collection: string): Promise<Record<string, number>> {
  const { results } = await env.DB.prepare(
    "SELECT retrieval_tokens FROM nodes WHERE scope_type = 'collection' AND scope_id = ?1",
  )
    .bind(collection)
    .all<{ retrieval_tokens: string }>();
  const out: Record<string, number> = results.length > 0 ? { "": results.length } : {};
  for (const r of results) {
    for (const t of new Set(r.retrieval_tokens.split(" ").filter(Boolean))) out[t] = (out[t] ?? 0) + 1;
  }
  return out;
}

const search = (collections: string[], text: string, nodeTypes = ["passage"] as const) =>
  index.search({ scopes: collections.map(collectionScope), nodeTypes: [...nodeTypes], text, limit: 20 });

const nodeIdsOf = async (collection: string) =>
  new Set(
    (
      await env.DB.prepare("SELECT node_id FROM nodes WHERE scope_type = 'collection' AND scope_id = ?1")
        .bind(collection)
        .all<{ node_id: string }>()
    ).results.map((r) => r.node_id),
  );

describe("knowledge FTS namespaces", () => {
  it("a collection's query reads only its own postings, so identical text elsewhere changes nothing", async ({
    expect,
  }) => {
    const [a, b] = await twoCollections();
    await upload(a, [{ name: "same.md", content: TEXT }]);
    const alone = await index.frequencies({
      scopes: [collectionScope(a)],
      nodeTypes: ["passage"],
      tokens: ["雷电", "将军", "component", "v-model"],
    });
    const before = await search([a], "雷电将军");
    await upload(b, [{ name: "same.md", content: TEXT }]);

    const [nsA, nsB] = [await namespaceOf(a), await namespaceOf(b)];
    expect(nsA).not.toBe(nsB);
    // The namespaced postings of a token hold one collection's rows, the plain token none.
    const seqA = await collectionSeqs(a);
    const inA = await ftsRows(`fts_tokens : "${namespaced("雷电", nsA)}"`);
    expect(inA.length).toBeGreaterThan(0);
    expect(inA.every((s) => seqA.includes(s))).toBe(true);
    const seqB = new Set(await collectionSeqs(b));
    expect((await ftsRows('fts_tokens : "雷电"')).some((s) => seqB.has(s) || seqA.includes(s))).toBe(false);

    const found = await search([a], "雷电将军");
    const idsA = await nodeIdsOf(a);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((c) => idsA.has(c.nodeId))).toBe(true);
    // Same ranking and scores as before the other collection existed: its postings were not read.
    expect(found).toEqual(before);
    expect(
      await index.frequencies({
        scopes: [collectionScope(a)],
        nodeTypes: ["passage"],
        tokens: ["雷电", "将军", "component", "v-model"],
      }),
    ).toEqual(alone);

    // Both collections: each one's rows, under both namespaces.
    const both = await search([a, b], "雷电将军");
    const idsB = await nodeIdsOf(b);
    expect(both.some((c) => idsA.has(c.nodeId))).toBe(true);
    expect(both.some((c) => idsB.has(c.nodeId))).toBe(true);
  });

  it("finds dotted and hyphenated tokens by any of their parts, like the plain index", async ({ expect }) => {
    const a = uniqueName();
    await createCollection(a);
    await upload(a, [{ name: "api.md", content: TEXT }]);
    const ids = await nodeIdsOf(a);
    for (const q of [
      "v-model",
      "errorhandler",
      "app.config.errorHandler",
      "vue.js",
      "js",
      "isn't",
      "components",
    ]) {
      const found = await search([a], q);
      expect(found.length, q).toBeGreaterThan(0);
      expect(found.every((c) => ids.has(c.nodeId))).toBe(true);
    }
    // Han/kana frequencies come from kb_fts_df; they equal what FTS5 counts in the namespace.
    const ns = await namespaceOf(a);
    const f = await index.frequencies({
      scopes: [collectionScope(a)],
      nodeTypes: ["passage"],
      tokens: ["将军", "神"],
    });
    for (const t of ["将军", "神"]) {
      expect(f.df.get(t), t).toBe((await ftsRows(`fts_tokens : "${namespaced(t, ns)}"`)).length);
    }
    expect(f.rows).toBe((await collectionSeqs(a)).length);
  });

  it("counts Latin, dotted and hyphenated tokens as FTS5 counts them, in each asked namespace", async ({
    expect,
  }) => {
    const [a, b] = [uniqueName(), uniqueName()];
    await createCollection(a);
    await createCollection(b);
    await upload(a, [{ name: "api.md", content: TEXT }]);
    await upload(b, [{ name: "api.md", content: `${TEXT}\n\nA component again, and React again.` }]);
    const tokens = ["component", "react", "v-model", "app.config.errorhandler", "absent", "将军"];
    const f = await index.frequencies({
      scopes: [collectionScope(a), collectionScope(b)],
      nodeTypes: ["passage"],
      tokens,
    });
    const namespaces = [await namespaceOf(a), await namespaceOf(b)];
    for (const t of tokens) {
      let n = 0;
      for (const ns of namespaces)
        n += (await ftsRows(`fts_tokens : ${namespaceTemplate(t).replaceAll("\u0001", ns)}`)).length;
      expect(f.df.get(t), t).toBe(n);
    }
    expect(f.df.get("component")).toBeGreaterThan(1);
    expect(f.df.get("absent")).toBe(0);
    expect(f.rows).toBe((await collectionSeqs(a)).length + (await collectionSeqs(b)).length);
  });

  it("keeps kb_fts_df equal to the collection's rows across replace and delete", async ({ expect }) => {
    const a = uniqueName();
    await createCollection(a);
    const ns = await namespaceOf(a);
    await upload(a, [
      { name: "one.md", content: TEXT },
      { name: "two.md", content: "# 标题\n\n神里绫华是稻妻的白鹭公主。\n\n她的兄长是神里绫人。" },
    ]);
    expect(await dfTable(ns)).toEqual(await dfFromNodes(a));
    await upload(a, [{ name: "one.md", content: "# 新版本\n\n雷电将军换了新的说法。\n\n影向山上有樱花。" }]);
    expect(await dfTable(ns)).toEqual(await dfFromNodes(a));
    expect((await api(`/api/kb/collections/${a}/documents?source=one.md`, { method: "DELETE" })).status).toBe(
      200,
    );
    expect(await dfTable(ns)).toEqual(await dfFromNodes(a));
    expect((await api(`/api/kb/collections/${a}`, { method: "DELETE" })).status).toBe(200);
    expect(await dfTable(ns)).toEqual({});
    expect(await ftsRows(`fts_tokens : "${namespaced("神里", ns)}"`)).toEqual([]);
  });

  it("the migration's rebuild statements restore every row of nodes_fts and kb_fts_df", async ({
    expect,
  }) => {
    const a = uniqueName();
    await createCollection(a);
    await upload(a, [{ name: "one.md", content: TEXT }]);
    const chat = `qq:group:${crypto.randomUUID().slice(0, 8)}`;
    const memory = `m-${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.prepare(
      `INSERT INTO nodes (node_id, node_type, source_type, scope_type, scope_id, kind, raw_text, retrieval_text,
         retrieval_tokens, content_hash, created_at, updated_at)
       VALUES (?1, 'memory', 'conversation', 'chat', ?2, 'fact', '群里的暗号是青蛙', '群里的暗号是青蛙', ?3, ?1, 1, 1)`,
    )
      .bind(memory, chat, indexText("群里的暗号是青蛙"))
      .run();
    const ns = await namespaceOf(a);
    const memoryQuery = memoryMatch("暗号青蛙", [{ type: "chat", id: chat }]) ?? "";
    const expected = {
      kb: await search([a], "雷电将军"),
      memory: await ftsRows(memoryQuery),
      df: await dfTable(ns),
    };
    expect(expected.kb.length).toBeGreaterThan(0);
    expect(expected.memory.length).toBe(1);

    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0200_"));
    const rebuild = (migration?.queries ?? []).filter(
      (q) =>
        q.startsWith("INSERT INTO nodes_fts (rowid") ||
        q.startsWith("INSERT INTO kb_fts_df (ns, token, df)\n"),
    );
    expect(rebuild.length).toBeGreaterThan(2);
    await env.DB.prepare("INSERT INTO nodes_fts (nodes_fts) VALUES ('delete-all')").run();
    await env.DB.prepare("DELETE FROM kb_fts_df").run();
    expect(await search([a], "雷电将军")).toEqual([]);
    expect(await ftsRows(memoryQuery)).toEqual([]);
    for (const q of rebuild) await env.DB.prepare(q).run();

    expect(await search([a], "雷电将军")).toEqual(expected.kb);
    expect(await ftsRows(memoryQuery)).toEqual(expected.memory);
    expect(await dfTable(ns)).toEqual(expected.df);
    expect(queryTokens("暗号青蛙").length).toBeGreaterThan(0);
  });
});
