import { convertMarkdown } from "@src/adapters/documents/markdown-converter";
import { chunkBlocks, effectiveOverlap } from "@src/domain/knowledge/chunking";
import type { TextBlock } from "@src/domain/knowledge/document";
import { planDocument } from "@src/domain/knowledge/document-plan";
import { buildOutline } from "@src/domain/knowledge/outline";
import { buildRetrievalText } from "@src/domain/knowledge/retrieval-text";
import { splitSentences, windowSplit } from "@src/domain/knowledge/sentences";
import { describe, it } from "vitest";

const para = (text: string, role: TextBlock["role"] = "paragraph"): TextBlock => ({
  kind: "text",
  text,
  role,
});

/** Deterministic pseudo-random text mixing CJK sentences, Latin sentences and long runs. */
function sampleText(seed: number, length: number): string {
  const parts = [
    "他创造了生命。",
    "黄金莱茵多特的弟子！",
    "The alchemist smiled. ",
    "无标点的超长句子".repeat(9),
    "Is it? Yes; ",
    "，",
    "\n",
  ];
  let x = seed;
  let out = "";
  while (out.length < length) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += parts[x % parts.length];
  }
  return out;
}

describe("sentence and window splitting", () => {
  it("splits Chinese after 。！？ and Latin after . ! ? followed by a space, losing nothing", ({
    expect,
  }) => {
    const text = "他来了。她走了！真的吗？Yes. It is 3.14 now. 最后";
    const parts = splitSentences(text);
    expect(parts).toEqual(["他来了。", "她走了！", "真的吗？", "Yes. ", "It is 3.14 now. ", "最后"]);
    expect(parts.join("")).toBe(text);
  });

  it("keeps closing quotes with their sentence", ({ expect }) => {
    expect(splitSentences("他说：“走吧。”然后走了。")).toEqual(["他说：“走吧。”", "然后走了。"]);
  });

  it.for([10, 37, 200])(
    "window-splits a run without punctuation into pieces of at most %i",
    (max, { expect }) => {
      const text = "无".repeat(max * 3 + 5);
      const pieces = windowSplit(text, max);
      expect(pieces.join("")).toBe(text);
      expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(max);
    },
  );
});

describe("chunkBlocks", () => {
  it.for([
    [50, 10],
    [120, 40],
    [200, 200],
    [800, 80],
  ] as const)("never exceeds chunk size %i (overlap %i) on mixed text", ([size, overlap], { expect }) => {
    for (let seed = 1; seed <= 20; seed++) {
      const blocks = [
        para(sampleText(seed, 3000)),
        para(sampleText(seed + 100, 90)),
        para(sampleText(seed, 700), "code"),
      ];
      const chunks = chunkBlocks(blocks, { size, overlap });
      expect(chunks.length).toBeGreaterThan(0);
      for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(size);
    }
  });

  it("packs short paragraphs together and keeps them whole", ({ expect }) => {
    const chunks = chunkBlocks([para("第一段。"), para("第二段。"), para("第三段。")], {
      size: 100,
      overlap: 20,
    });
    expect(chunks.map((c) => c.text)).toEqual(["第一段。\n\n第二段。\n\n第三段。"]);
  });

  it("carries overlap only inside a split paragraph, capped at a quarter of the size", ({ expect }) => {
    expect(effectiveOverlap({ size: 100, overlap: 80 })).toBe(25);
    const sentences = Array.from({ length: 12 }, (_, i) => `第${i}句话在这里。`).join("");
    const chunks = chunkBlocks([para(sentences)], { size: 40, overlap: 80 });
    expect(chunks.length).toBeGreaterThan(2);
    const second = chunks[1]?.text ?? "";
    const firstTail = (chunks[0]?.text ?? "").slice(-8);
    expect(second.startsWith(firstTail)).toBe(true);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(40);
  });
});

describe("heading tree", () => {
  const md = [
    "---",
    "title: 原神角色资料",
    "aliases: [Albedo, 白垩之子]",
    "---",
    "# 阿贝多 {#albedo}",
    "阿贝多是西风骑士团的首席炼金术士。",
    "## 角色故事",
    "### 角色故事 5",
    `${"他在雪山中发现了黄金莱茵多特留下的笔记。".repeat(30)}`,
    "#### 深处",
    "更深一层。",
    "## 命之座",
    "白垩之子。",
  ].join("\n");

  it("nests headings by level and keeps anchors", ({ expect }) => {
    const doc = convertMarkdown(md);
    expect(doc.title).toBe("原神角色资料");
    expect(doc.aliases).toEqual(["Albedo", "白垩之子"]);
    const outline = buildOutline(doc.blocks);
    expect(outline.sections.map((s) => s.title)).toEqual(["阿贝多"]);
    expect(outline.sections[0]?.anchor).toBe("albedo");
    expect(outline.sections[0]?.children.map((s) => s.title)).toEqual(["角色故事", "命之座"]);
    expect(outline.sections[0]?.children[0]?.children[0]?.path).toEqual(["阿贝多", "角色故事", "角色故事 5"]);
  });

  it("every passage of a chunked section carries the full heading path", ({ expect }) => {
    const plan = planDocument({
      collection: "genshin",
      sourceId: "albedo.md",
      fileHash: "h1",
      format: "markdown",
      title: "原神角色资料",
      parsed: convertMarkdown(md),
      chunk: { size: 100, overlap: 20 },
    });
    const story = plan.nodes.filter((n) => n.nodeType === "passage" && n.path.at(-1) === "角色故事 5");
    expect(story.length).toBeGreaterThan(3);
    for (const p of story) {
      expect(p.path).toEqual(["阿贝多", "角色故事", "角色故事 5"]);
      expect(p.retrievalText).toContain("阿贝多 > 角色故事 > 角色故事 5");
      expect(p.retrievalText).toContain("Albedo");
      expect(p.rawText).not.toContain("阿贝多 >");
      expect(p.rawText.length).toBeLessThanOrEqual(100);
    }
    const section = plan.nodes.find((n) => n.nodeType === "section" && n.title === "角色故事 5");
    expect(story.every((p) => p.parentId === section?.nodeId && p.rootId === plan.documentId)).toBe(true);
    const adjacent = plan.edges.filter(
      (e) => e.type === "adjacent_to" && story.some((s) => s.nodeId === e.src),
    );
    expect(adjacent.length).toBe(story.length - 1);
  });

  it("gives the same ids to the same file and new ones to a changed file", ({ expect }) => {
    const input = {
      collection: "c",
      sourceId: "a.md",
      format: "markdown" as const,
      title: "A",
      parsed: convertMarkdown(md),
      chunk: { size: 200, overlap: 0 },
    };
    const a = planDocument({ ...input, fileHash: "v1" });
    const b = planDocument({ ...input, fileHash: "v1" });
    const c = planDocument({ ...input, fileHash: "v2" });
    expect(b.nodes.map((n) => n.nodeId)).toEqual(a.nodes.map((n) => n.nodeId));
    expect(c.nodes.some((n) => a.nodes.some((m) => m.nodeId === n.nodeId))).toBe(false);
    expect(Math.max(...a.nodes.map((n) => n.nodeId.length))).toBeLessThanOrEqual(64);
  });
});

describe("buildRetrievalText", () => {
  it("joins source title, path, aliases, local title and text without repeating the title", ({ expect }) => {
    expect(
      buildRetrievalText({
        sourceTitle: "阿贝多",
        path: ["阿贝多", "角色故事"],
        aliases: ["Albedo"],
        localTitle: "第一节",
        text: "正文",
      }),
    ).toBe("阿贝多 > 角色故事\nAlbedo\n第一节\n正文");
  });
});
