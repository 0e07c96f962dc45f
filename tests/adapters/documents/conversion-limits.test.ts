/**
 * Every converter refuses a file past its limits with `too-large` or `too-deep` naming the
 * limit, quickly and without exhausting memory, and still converts ordinary files of the same
 * shape (docs/invariants.md#hostile-input-changes-nothing).
 */

import { MAX_PDF_PAGES } from "@src/adapters/documents/binary-converters";
import { DOCX_LIMITS, isTextPart } from "@src/adapters/documents/docx-package";
import { MAX_HTML_DEPTH } from "@src/adapters/documents/html-converter";
import {
  LibraryDocumentConverter,
  MAX_TEXT_FILE_BYTES,
} from "@src/adapters/documents/library-document-converter";
import { MAX_EMPHASIS_DEPTH, MAX_MARKDOWN_DEPTH } from "@src/adapters/documents/markdown-nesting";
import { MAX_JSON_DEPTH } from "@src/domain/kernel/bounded-json";
import type { DocumentFormat } from "@src/domain/knowledge/document";
import { strToU8, zipSync } from "fflate";
import { describe, it } from "vitest";
import { docx, pdf } from "../../support/documents";
import {
  deepDocx,
  deepMarkdownList,
  docxBomb,
  lyingDocxBomb,
  repeatedPagePdf,
} from "../../support/hostile-files";

const converter = new LibraryDocumentConverter();
const convert = (format: DocumentFormat, name: string, content: string | Uint8Array) =>
  converter.convert(format, {
    name,
    bytes: typeof content === "string" ? new TextEncoder().encode(content) : content,
  });

describe("Markdown", () => {
  it.for<[string, string]>([
    // 1,000 indented levels are 1 MB, under the size limit, and exhaust the heap of a Worker.
    ["1,000 list levels, each indented", deepMarkdownList(1000)],
    ["3,000 list markers on one line", `${"- ".repeat(3000)}x`],
    ["3,000 ordered markers on one line", `${"1. ".repeat(3000)}x`],
    ["3,000 quote levels", `${"> ".repeat(3000)}x`],
    [
      "a quote one level deeper per line",
      Array.from({ length: 1000 }, (_, i) => `${">".repeat(i + 1)} x`).join("\n"),
    ],
    ["tab-indented levels", Array.from({ length: 200 }, (_, i) => `${"\t".repeat(i)}- x`).join("\n")],
  ])("refuses %s, naming the limit and the line", async ([, text], { expect }) => {
    const r = await convert("markdown", "deep.md", text);
    expect(r).toMatchObject({ ok: false, error: { kind: "too-deep" } });
    if (!r.ok)
      expect(r.error.message).toMatch(new RegExp(`deeper than ${MAX_MARKDOWN_DEPTH} levels at line \\d+`));
  });

  it("refuses the reported file of 3,000 levels (9 MB) for its size before measuring it", async ({
    expect,
  }) => {
    const r = await convert("markdown", "deep.md", deepMarkdownList(3000));
    expect(r).toMatchObject({ ok: false, error: { kind: "too-large" } });
  });

  it("refuses 3,000 nested emphasis spans in one paragraph", async ({ expect }) => {
    const r = await convert("markdown", "emph.md", `${"*a ".repeat(3000)}x${" b*".repeat(3000)}`);
    expect(r).toMatchObject({ ok: false, error: { kind: "too-deep" } });
    if (!r.ok) expect(r.error.message).toContain(`emphasis nests deeper than ${MAX_EMPHASIS_DEPTH} levels`);
  });

  it("converts ordinary nesting, emphasis and code at the limits of real documents", async ({ expect }) => {
    const list = Array.from({ length: 12 }, (_, i) => `${"    ".repeat(i)}- level ${i + 1}`).join("\n");
    const bold = Array.from({ length: 200 }, (_, i) => `**粗体${i}** 和 *斜体* 和 snake_case_${i}`).join(" ");
    const yaml = `\`\`\`yaml\n${Array.from({ length: 25 }, (_, i) => `${"  ".repeat(i)}- key${i}: v`).join("\n")}\n\`\`\``;
    const r = await convert("markdown", "ok.md", `# 标题\n\n${list}\n\n${bold}\n\n${yaml}\n\n> > > 三层引用`);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.blocks.map((b) => b.kind)).toContain("text");
  });
});

describe("HTML", () => {
  it("refuses 100,000 nested elements at once, naming the limit", async ({ expect }) => {
    const r = await convert("html", "deep.html", `${"<div>".repeat(100_000)}x${"</div>".repeat(100_000)}`);
    expect(r).toEqual({
      ok: false,
      error: {
        kind: "too-deep",
        message: `HTML elements nest deeper than ${MAX_HTML_DEPTH} levels (the limit)`,
      },
    });
  });

  it("converts nesting just under the limit, void elements and implied closes not counted", async ({
    expect,
  }) => {
    // html, body, the divs, p, and br or img inside it: exactly the limit at the deepest point.
    const divs = MAX_HTML_DEPTH - 4;
    const body = `${"<div>".repeat(divs)}<p>深处的文字<br><br><img src=x><p>第二段${"</div>".repeat(divs)}`;
    const r = await convert(
      "html",
      "ok.html",
      `<html><body>${`<p>${"<br>".repeat(2000)}`.repeat(3)}${body}</body></html>`,
    );
    expect(r.ok).toBe(true);
    if (r.ok) expect(JSON.stringify(r.value.blocks)).toContain("深处的文字");
  });
});

describe("JSON", () => {
  it("refuses a document nested past the limit, and names the line of JSON Lines", async ({ expect }) => {
    const deep = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
    const doc = await convert("json", "deep.json", `{"a":${deep}}`);
    expect(doc).toMatchObject({ ok: false, error: { kind: "too-deep" } });
    if (!doc.ok) expect(doc.error.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
    const lines = await convert("json", "deep.jsonl", `{"title":"ok"}\n\n{"a":${deep}}`);
    expect(lines).toMatchObject({ ok: false, error: { kind: "too-deep" } });
    if (!lines.ok) expect(lines.error.message).toMatch(/^line 3 /);
  });
});

describe("DOCX", () => {
  it("refuses a 120 MB bomb from its central directory, before inflating it", async ({ expect }) => {
    const bomb = docxBomb(120 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(200 * 1024); // the size of the reported file
    const r = await convert("docx", "bomb.docx", bomb);
    expect(r).toMatchObject({ ok: false, error: { kind: "too-large" } });
    if (!r.ok) expect(r.error.message).toMatch(/inflates to 12\d\.\d MiB; the limit is 2\.0 MiB/);
  });

  it("refuses a bomb whose central directory lies, by counting what really inflates", async ({ expect }) => {
    const r = await convert("docx", "liar.docx", lyingDocxBomb(120 * 1024 * 1024));
    expect(r).toMatchObject({ ok: false, error: { kind: "too-large" } });
    if (!r.ok) expect(r.error.message).toContain("more than the archive declares");
  });

  it("refuses tables nested past the XML limit, naming the part", async ({ expect }) => {
    const r = await convert("docx", "deep.docx", deepDocx(200));
    expect(r).toEqual({
      ok: false,
      error: {
        kind: "too-deep",
        message: `word/document.xml nests elements deeper than ${DOCX_LIMITS.maxXmlDepth} levels (the limit)`,
      },
    });
  });

  it("converts a document with large media, which is never inflated", async ({ expect }) => {
    const base = docx([{ text: "导入带图片的文档", heading: 1 }, { text: "正文内容。" }]);
    const { unzipSync } = await import("fflate");
    const entries = unzipSync(base);
    // 30 MB of an image that compresses to almost nothing: declared, never read.
    entries["word/media/image1.bmp"] = new Uint8Array(30 * 1024 * 1024);
    const r = await convert("docx", "media.docx", zipSync(entries, { level: 6 }));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.blocks.map((b) => b.text)).toContain("导入带图片的文档");
  });

  it.for(["word/document.xml", "[Content_Types].xml", "_rels/.rels", "word/_rels/document.xml.rels"])(
    "reads %s, a part mammoth reads",
    (name, { expect }) => {
      expect(isTextPart(name), name).toBe(true);
    },
  );

  it.for(["word/media/a.png", "word/charts/chart1.xml", "customXml/item1.xml", "word/theme/theme1.xml"])(
    "leaves %s unread, a part mammoth does not read",
    (name, { expect }) => {
      expect(isTextPart(name), name).toBe(false);
    },
  );

  it("still refuses a file that is not a ZIP as damaged", async ({ expect }) => {
    const r = await convert("docx", "fake.docx", strToU8("PK\u0003\u0004 but nothing else"));
    expect(r).toMatchObject({ ok: false, error: { kind: "corrupt" } });
  });
});

describe("PDF", () => {
  it("refuses a page tree naming one page 5,000 times, before reading any page", async ({ expect }) => {
    const file = repeatedPagePdf(5000);
    expect(file.length).toBeLessThan(40 * 1024);
    const r = await convert("pdf", "pages.pdf", file);
    expect(r).toEqual({
      ok: false,
      error: {
        kind: "too-large",
        message: `the PDF has 5000 pages; the limit is ${MAX_PDF_PAGES}: split it into smaller files`,
      },
    });
  });

  it("reads every page up to the limit, one at a time, with each page's lines", async ({ expect }) => {
    const few = await convert("pdf", "few.pdf", repeatedPagePdf(30));
    expect(few.ok).toBe(true);
    if (few.ok) expect(new Set(few.value.blocks.map((b) => (b.kind === "text" ? b.page : 0))).size).toBe(30);
    const lines = await convert("pdf", "lines.pdf", pdf(["First line of the page.", "Second line."]));
    expect(lines.ok).toBe(true);
    if (lines.ok)
      expect(lines.value.blocks.map((b) => b.text)).toEqual(["First line of the page.", "Second line."]);
  });
});

describe("text formats", () => {
  it.for<[DocumentFormat, string]>([
    ["markdown", "big.md"],
    ["html", "big.html"],
    ["text", "big.txt"],
    ["csv", "big.csv"],
    ["json", "big.json"],
  ])("refuses %s over the size limit before lexing it", async ([format, name], { expect }) => {
    const big = new Uint8Array(MAX_TEXT_FILE_BYTES + 1).fill(0x61);
    const r = await convert(format, name, big);
    expect(r).toMatchObject({ ok: false, error: { kind: "too-large" } });
    if (!r.ok) expect(r.error.message).toContain("text formats are limited to 2 MiB");
  });

  it("converts a text file at the limit", async ({ expect }) => {
    const line = "一段普通的文字，用来填满上限。\n\n";
    const text = line.repeat(Math.floor(MAX_TEXT_FILE_BYTES / new TextEncoder().encode(line).length));
    const r = await convert("text", "full.txt", text);
    expect(r.ok).toBe(true);
  });
});
