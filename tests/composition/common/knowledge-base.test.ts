import { env } from "cloudflare:workers";
import { hexUtf8 } from "@src/adapters/d1/d1-filter";
import { D1KnowledgeStore } from "@src/adapters/d1/d1-knowledge-store";
import { createKnowledgeServices } from "@src/composition/common/knowledge-services";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import type { DocumentPlan } from "@src/domain/knowledge/document-plan";
import { profileOptions, searchKnowledge } from "@src/domain/knowledge/knowledge-search";
import { withOverrides } from "@src/domain/retrieval/retrieval-options";
import { beforeAll, describe, it } from "vitest";
import { docx, pdf } from "../../support/documents";
import {
  api,
  createCollection,
  json,
  search,
  twoCollections,
  uniqueName,
  upload,
} from "../../support/knowledge-api";

const ALBEDO = [
  "# 阿贝多",
  "阿贝多是西风骑士团的首席炼金术士。",
  "## 角色故事",
  "### 角色故事 5",
  "他在雪山中发现了师父留下的笔记，笔记里写满了关于生命的问题。".repeat(12),
  "## 命之座",
  "白垩之子。",
].join("\n\n");

// Search these tiny collections chunk by chunk: no reading whole, no parent expansion.
beforeAll(async () => {
  const config = { knowledge: { search: { readWholeTokens: 0, parentTokens: 0, neighbours: 0 } } };
  await env.DB.prepare("INSERT OR REPLACE INTO settings (key, value, updated_at) VALUES ('config', ?1, ?2)")
    .bind(JSON.stringify(config), Date.now())
    .run();
});

async function passages(collection: string) {
  const { results } = await env.DB.prepare(
    "SELECT node_id, path, raw_text, retrieval_text, parent_id, root_id FROM nodes WHERE scope_type = 'collection' AND scope_id = ?1 AND node_type = 'passage'",
  )
    .bind(collection)
    .all<{
      node_id: string;
      path: string;
      raw_text: string;
      retrieval_text: string;
      parent_id: string;
      root_id: string;
    }>();
  return results;
}

describe("knowledge base: import", () => {
  it("keeps the heading path on every passage of a chunked section", async ({ expect }) => {
    const name = uniqueName();
    await createCollection(name, { chunkSize: 80 });
    const { body } = await upload(name, [{ name: "albedo.md", content: ALBEDO }]);
    expect(body.results[0]).toMatchObject({ status: "imported", format: "markdown", sections: 4 });
    const story = (await passages(name)).filter((p) => JSON.parse(p.path).at(-1) === "角色故事 5");
    expect(story.length).toBeGreaterThan(3);
    for (const p of story) {
      expect(JSON.parse(p.path)).toEqual(["阿贝多", "角色故事", "角色故事 5"]);
      expect(p.retrieval_text).toContain("阿贝多 > 角色故事 > 角色故事 5");
      expect(p.raw_text).not.toContain("角色故事 5");
    }
    const found = await search("阿贝多的角色故事 5 笔记", [name]);
    expect(found.items[0]?.citation).toMatchObject({
      collection: name,
      source: "albedo.md",
      path: ["阿贝多", "角色故事", "角色故事 5"],
    });
    const edges = await env.DB.prepare(
      "SELECT edge_type, count(*) AS n FROM edges WHERE dst_id IN (SELECT node_id FROM nodes WHERE scope_id = ?1) GROUP BY edge_type ORDER BY edge_type",
    )
      .bind(name)
      .all<{ edge_type: string; n: number }>();
    expect(edges.results.map((e) => e.edge_type)).toEqual(["adjacent_to", "parent_of"]);
  });

  it("never stores a passage longer than chunk_size, whatever the format", async ({ expect }) => {
    const name = uniqueName();
    await createCollection(name, { chunkSize: 60, chunkOverlap: 30 });
    const long = "这是一个没有任何标点符号而且非常非常长的句子用来测试窗口切分".repeat(8);
    const { body } = await upload(name, [
      { name: "a.md", content: `# 标题\n\n${long}\n\n\`\`\`js\n${"const x = 1;\n".repeat(20)}\`\`\`` },
      { name: "b.txt", content: `${long}\n\nThe quick brown fox jumps over the lazy dog. `.repeat(5) },
      {
        name: "c.html",
        content: `<html><title>页</title><h1>一</h1><p>${long}</p><table><tr><td>${long}</td></tr></table></html>`,
      },
      { name: "d.csv", content: `名称,说明\n甲,${long}\n乙,短\n` },
      { name: "e.json", content: JSON.stringify({ title: "对象", items: [{ name: "x", text: long }] }) },
    ]);
    expect(body.results.map((r) => r.status)).toEqual([
      "imported",
      "imported",
      "imported",
      "imported",
      "imported",
    ]);
    const all = await passages(name);
    expect(all.length).toBeGreaterThan(20);
    expect(Math.max(...all.map((p) => p.raw_text.length))).toBeLessThanOrEqual(60);
  });

  it("imports DOCX headings and PDF text through their libraries", async ({ expect }) => {
    const name = uniqueName();
    await createCollection(name, { chunkSize: 200 });
    const { body } = await upload(name, [
      {
        name: "guide.docx",
        content: docx([
          { text: "Alchemy Handbook", heading: 1 },
          { text: "Transmutation", heading: 2 },
          { text: "Chalk turns into life under the right circle." },
        ]),
      },
      { name: "notes.pdf", content: pdf(["Dragonspine is cold.", "Bring a warm coat."]) },
    ]);
    expect(body.results.map((r) => [r.status, r.error?.message])).toEqual([
      ["imported", undefined],
      ["imported", undefined],
    ]);
    const docxHit = await search("chalk circle", [name]);
    expect(docxHit.items[0]?.citation.path).toEqual(["Alchemy Handbook", "Transmutation"]);
    const pdfHit = await search("warm coat", [name]);
    expect(pdfHit.items[0]?.text).toContain("Bring a warm coat.");
  });

  it("returns one result per file in a batch and keeps the good files when others fail", async ({
    expect,
  }) => {
    const name = uniqueName();
    await createCollection(name);
    const { status, body } = await upload(name, [
      { name: "good.md", content: "# 好\n\n蒙德城的风很温柔。" },
      { name: "broken.pdf", content: "this is not a pdf" },
      { name: "picture.png", content: new Uint8Array([137, 80, 78, 71]) },
      { name: "empty.txt", content: "" },
      { name: "broken.docx", content: "PK\u0003\u0004 not really a zip" },
      { name: "bad.json", content: "{ nope" },
      { name: "latin1.txt", content: new Uint8Array([0xe9, 0x74, 0xe9]) },
      { name: "table.csv", content: "城市,元素\n蒙德,风\n璃月,岩\n" },
    ]);
    expect(status).toBe(200);
    expect(body.results.map((r) => [r.file, r.status, r.error?.kind])).toEqual([
      ["good.md", "imported", undefined],
      ["broken.pdf", "failed", "corrupt"],
      ["picture.png", "failed", "unsupported"],
      ["empty.txt", "failed", "empty"],
      ["broken.docx", "failed", "corrupt"],
      ["bad.json", "failed", "corrupt"],
      ["latin1.txt", "failed", "corrupt"],
      ["table.csv", "imported", undefined],
    ]);
    expect(body.failed).toBe(6);
    expect((await search("风很温柔", [name])).items[0]?.citation.source).toBe("good.md");
    expect((await search("璃月", [name])).items[0]?.text).toContain("城市: 璃月");
  });

  it("refuses more than 20 files, an unknown collection and a bad collection name", async ({ expect }) => {
    const name = uniqueName();
    await createCollection(name);
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.txt`, content: "x" }));
    expect((await upload(name, many)).status).toBe(400);
    expect((await upload("no-such-collection", [{ name: "a.txt", content: "x" }])).status).toBe(404);
    const res = await api("/api/kb/collections", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "has space" }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid", field: "name" });
  });
});

describe("knowledge base: re-import and delete", () => {
  it("skips an unchanged file and replaces a changed one", async ({ expect }) => {
    const name = uniqueName();
    await createCollection(name, { chunkSize: 100 });
    const first = await upload(name, [{ name: "doc.md", content: "# 文档\n\n第一版：提瓦特的七种元素。" }]);
    const idsBefore = (await passages(name)).map((p) => p.node_id).sort();
    const again = await upload(name, [{ name: "doc.md", content: "# 文档\n\n第一版：提瓦特的七种元素。" }]);
    expect(again.body.results[0]).toMatchObject({
      status: "unchanged",
      documentId: first.body.results[0]?.documentId,
    });
    expect((await passages(name)).map((p) => p.node_id).sort()).toEqual(idsBefore);
    const changed = await upload(name, [{ name: "doc.md", content: "# 文档\n\n第二版：深渊教团的阴谋。" }]);
    expect(changed.body.results[0]?.status).toBe("replaced");
    const after = await passages(name);
    expect(after.map((p) => p.raw_text)).toEqual(["第二版：深渊教团的阴谋。"]);
    expect((await search("提瓦特的七种元素", [name])).items).toEqual([]);
    const docs = await json<{ documents: unknown[] }>(`/api/kb/collections/${name}`);
    expect(docs.documents).toHaveLength(1);
  });

  it("leaves the previous version whole when writing the new one fails", async ({ expect }) => {
    const name = uniqueName();
    await createCollection(name, { chunkSize: 100 });
    await upload(name, [{ name: "doc.md", content: "# 文档\n\n旧版本的内容还在。" }]);
    const before = await passages(name);
    const store = new D1KnowledgeStore(env.DB);
    const good = before[0];
    if (!good) throw new Error("no passage");
    const broken: DocumentPlan = {
      documentId: "d_broken",
      nodes: [
        {
          nodeId: "d_broken",
          parentId: null,
          rootId: "d_broken",
          path: [],
          position: 0,
          // Violates the node_type CHECK: the batch fails after its DELETE ran.
          nodeType: "bogus" as "document",
          sourceType: "document",
          sourceId: "doc.md",
          scopeType: "collection",
          scopeId: name,
          collection: name,
          title: "x",
          rawText: "x",
          retrievalText: "x",
          retrievalTokens: "x",
          metadata: {},
          provenance: {},
          contentHash: "h",
        },
      ],
      edges: [],
      counts: { sections: 0, passages: 0 },
    };
    await expect(store.replaceDocument(name, "doc.md", broken, Date.now())).rejects.toThrow();
    expect(await passages(name)).toEqual(before);
    expect((await search("旧版本的内容", [name])).items[0]?.text).toBe("旧版本的内容还在。");
  });

  it("deleting a collection leaves no node, FTS row, edge or embedding behind", async ({ expect }) => {
    const name = uniqueName();
    const marker = `zqx${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
    await createCollection(name, { chunkSize: 60 });
    await upload(name, [
      { name: "a.md", content: `# 标题 ${marker}\n\n${"独一无二的内容。".repeat(20)} ${marker}` },
    ]);
    const hashes = (
      await env.DB.prepare("SELECT DISTINCT content_hash FROM nodes WHERE scope_id = ?1")
        .bind(name)
        .all<{ content_hash: string }>()
    ).results.map((r) => r.content_hash);
    const embedded = await env.DB.prepare(
      "SELECT count(*) AS n FROM embeddings WHERE content_hash IN (SELECT value FROM json_each(?1))",
    )
      .bind(JSON.stringify(hashes))
      .first<{ n: number }>();
    expect(embedded?.n).toBeGreaterThan(0);

    // The collection's rows are indexed under its namespace (migration 0200).
    const ns = (
      await env.DB.prepare("SELECT fts_ns FROM kb_collections WHERE name = ?1")
        .bind(name)
        .first<{ fts_ns: string }>()
    )?.fts_ns;
    const marked = async () =>
      (
        await env.DB.prepare("SELECT count(*) AS n FROM nodes_fts WHERE nodes_fts MATCH ?1")
          .bind(`"${ns}${marker}"`)
          .first<{ n: number }>()
      )?.n;
    expect(await marked()).toBeGreaterThan(0);

    const res = await api(`/api/kb/collections/${name}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await marked()).toBe(0);

    const count = async (sql: string, ...args: unknown[]) =>
      (
        await env.DB.prepare(sql)
          .bind(...args)
          .first<{ n: number }>()
      )?.n;
    expect(await count("SELECT count(*) AS n FROM nodes WHERE scope_id = ?1", name)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM nodes_fts WHERE nodes_fts MATCH ?1", `"${marker}"`)).toBe(
      0,
    );
    expect(
      await count(
        "SELECT count(*) AS n FROM nodes_fts WHERE nodes_fts MATCH ?1",
        `scope_token : "${hexUtf8(`collection:${name}`)}"`,
      ),
    ).toBe(0);
    expect(
      await count(
        "SELECT count(*) AS n FROM embeddings WHERE content_hash IN (SELECT value FROM json_each(?1))",
        JSON.stringify(hashes),
      ),
    ).toBe(0);
    expect(await count("SELECT count(*) AS n FROM kb_collections WHERE name = ?1", name)).toBe(0);
    expect((await api(`/api/kb/collections/${name}`, { method: "DELETE" })).status).toBe(404);
  });
});

describe("knowledge base: search", () => {
  it.for([
    ['"', null],
    ["*", null],
    ["-", null],
    [":", null],
    ['他说"你好', '他说"你好"然后离开了'],
    ["C*", "C* 指针 的用法"],
    ["NEAR", "NEAR 是一个英文单词"],
    ["NEAR(指针 配置)", "C* 指针 的用法"],
    ["state-of-the-art", "state-of-the-art 技术"],
    ["key:value", "key:value 配置项"],
    ['"unbalanced', "unbalanced quotes 也能搜"],
    ["a AND NOT b OR (c", "C* 指针 的用法"],
  ] as const)("searches %j as text, never as FTS5 syntax", async ([query, expected], { expect }) => {
    const name = uniqueName("fts");
    await createCollection(name);
    await upload(name, [
      { name: "quote.txt", content: '他说"你好"然后离开了' },
      { name: "star.txt", content: "C* 指针 的用法" },
      { name: "near.txt", content: "NEAR 是一个英文单词" },
      { name: "dash.txt", content: "state-of-the-art 技术" },
      { name: "colon.txt", content: "key:value 配置项" },
      { name: "quotes.txt", content: "unbalanced quotes 也能搜" },
    ]);
    const res = await api("/api/kb/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, collections: [name] }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { text: string }[] };
    if (expected === null) expect(body.items).toEqual([]);
    else expect(body.items.map((i) => i.text)).toContain(expected);
  });

  it("reads a collection that fits the budget whole, and searches it otherwise", async ({ expect }) => {
    const small = uniqueName();
    await createCollection(small);
    await upload(small, [
      { name: "a.txt", content: "风神巴巴托斯。" },
      { name: "b.txt", content: "岩神摩拉克斯。" },
    ]);
    const retrieval = createKnowledgeServices(env, DEFAULT_SETTINGS).retrieval;
    const options = profileOptions({ ...DEFAULT_SETTINGS.knowledge.search, readWholeTokens: 100 });
    const whole = await searchKnowledge(retrieval, {
      query: "完全无关的问题",
      collections: [small],
      options,
    });
    expect(whole.strategy).toBe("whole");
    expect(whole.items.map((i) => i.text).sort()).toEqual(["岩神摩拉克斯。", "风神巴巴托斯。"]);
    const searched = await searchKnowledge(retrieval, {
      query: "完全无关的问题",
      collections: [small],
      options: withOverrides(options, { candidates: { readWholeTokens: 5 } }),
    });
    expect(searched.strategy).toBe("flat");
    expect(searched.items).toEqual([]);
  });

  it("never returns passages of a collection the request did not name", async ({ expect }) => {
    const [a, b] = await twoCollections();
    const filler = "无关的填充内容。".repeat(200);
    await upload(a, [{ name: "a.txt", content: `稻妻的雷电将军。\n\n${filler}` }]);
    await upload(b, [{ name: "b.txt", content: `稻妻的雷电将军是永恒的守护者。\n\n${filler}` }]);
    const found = await search("雷电将军", [a]);
    expect(found.items.length).toBeGreaterThan(0);
    expect(found.items.every((i) => i.citation.collection === a)).toBe(true);
  });
});
