/**
 * HTML → blocks with htmlparser2 (a forgiving parser that runs anywhere): h1–h6 become
 * headings (with their `id` as anchor), p/li/blockquote/div text becomes paragraphs,
 * `pre` code, tables one line per row; scripts, styles and navigation are skipped.
 * DOCX goes through here too, after mammoth turned it into HTML.
 */
import { DomHandler, Parser } from "htmlparser2";
import type { Block, ParsedDocument } from "../../domain/knowledge/document";
import { ConversionLimit } from "./conversion-limit";

/**
 * The deepest element nesting accepted. htmlparser2 searches its open-element stack on every
 * closing tag, so deep nesting costs time quadratic in depth (100,000 levels: tens of seconds),
 * and the block walk below recurses per level. Real pages, and mammoth's HTML of a DOCX within
 * its own limit (docx-package.ts), nest far less (docs/decisions/0140-document-conversion-limits.md).
 */
export const MAX_HTML_DEPTH = 512;

/** The DOM htmlparser2 builds, refusing the document as soon as it opens one element too many. */
class BoundedDomHandler extends DomHandler {
  #depth = 0;
  override onopentag(name: string, attribs: Record<string, string>): void {
    if (++this.#depth > MAX_HTML_DEPTH)
      throw new ConversionLimit(
        "too-deep",
        `HTML elements nest deeper than ${MAX_HTML_DEPTH} levels (the limit)`,
      );
    super.onopentag(name, attribs);
  }
  override onclosetag(): void {
    this.#depth--;
    super.onclosetag();
  }
}

function parseBounded(html: string) {
  const handler = new BoundedDomHandler();
  new Parser(handler, { decodeEntities: true }).end(html);
  return handler.root;
}

type ChildNode = ReturnType<typeof parseBounded>["children"][number];
type Element = Extract<ChildNode, { attribs: Record<string, string> }>;

const SKIP = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "head",
  "nav",
  "iframe",
  "object",
  "button",
  "select",
]);
const BLOCK = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "header",
  "footer",
  "aside",
  "li",
  "ul",
  "ol",
  "dl",
  "dt",
  "dd",
  "blockquote",
  "figure",
  "figcaption",
  "address",
  "details",
  "summary",
  "body",
  "html",
  "form",
  "fieldset",
]);

function textOf(node: ChildNode): string {
  if (node.type === "text") return node.data;
  if ("children" in node && node.type !== "script" && node.type !== "style")
    return (node.children as ChildNode[]).map(textOf).join("");
  return "";
}

const collapse = (s: string) => s.replace(/[ \t\r\n\f]+/g, " ").trim();

/** Throws ConversionLimit for elements nested past MAX_HTML_DEPTH. */
export function convertHtml(html: string): ParsedDocument {
  const dom = parseBounded(html);
  const blocks: Block[] = [];
  let title: string | null = null;
  let buffer = "";
  let role: "paragraph" | "quote" | "list" = "paragraph";

  const flush = () => {
    const text = collapse(buffer);
    if (text) blocks.push({ kind: "text", text, role });
    buffer = "";
    role = "paragraph";
  };

  const visit = (node: ChildNode): void => {
    if (node.type === "text") {
      buffer += node.data;
      return;
    }
    if (node.type !== "tag") return;
    const el = node as Element;
    const name = el.name.toLowerCase();
    if (name === "title" && title === null) {
      title = collapse(textOf(el)) || null;
      return;
    }
    if (SKIP.has(name)) return;
    const heading = /^h([1-6])$/.exec(name);
    if (heading) {
      flush();
      const text = collapse(textOf(el));
      const anchor = el.attribs.id;
      if (text)
        blocks.push({ kind: "heading", level: Number(heading[1]), text, ...(anchor ? { anchor } : {}) });
      return;
    }
    if (name === "pre") {
      flush();
      const code = textOf(el).replace(/\s+$/, "");
      if (code.trim()) blocks.push({ kind: "text", text: code, role: "code" });
      return;
    }
    if (name === "table") {
      flush();
      const rows: string[] = [];
      const collectRows = (n: ChildNode) => {
        if (n.type !== "tag") return;
        const e = n as Element;
        if (e.name === "tr") {
          const cells = e.children
            .filter((c): c is Element => c.type === "tag" && (c.name === "td" || c.name === "th"))
            .map((c) => collapse(textOf(c)));
          if (cells.some((c) => c)) rows.push(`| ${cells.join(" | ")} |`);
          return;
        }
        for (const c of e.children) collectRows(c);
      };
      collectRows(el);
      if (rows.length > 0) blocks.push({ kind: "text", text: rows.join("\n"), role: "table" });
      return;
    }
    if (name === "br") {
      buffer += "\n";
      return;
    }
    const isBlock = BLOCK.has(name);
    if (isBlock) flush();
    if (name === "blockquote") role = "quote";
    for (const child of el.children) visit(child);
    if (isBlock) flush();
  };

  for (const child of dom.children) visit(child);
  flush();
  const firstH1 = blocks.find((b) => b.kind === "heading" && b.level === 1);
  return { title: title ?? (firstH1?.kind === "heading" ? firstH1.text : null), aliases: [], blocks };
}
