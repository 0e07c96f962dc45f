/**
 * Markdown → blocks with the `marked` lexer: ATX and setext headings keep their level and
 * `{#anchor}`, every other block keeps its Markdown source verbatim (code fences, tables,
 * lists, VitePress containers). YAML front matter gives `title` and `aliases`. Text nesting
 * deeper than the limits of markdown-nesting.ts is refused before the lexer sees it.
 */
import { Lexer, type Token, type Tokens } from "marked";
import type { Block, ParsedDocument } from "../../domain/knowledge/document";
import { ConversionLimit } from "./conversion-limit";
import { checkMarkdownNesting, MAX_EMPHASIS_DEPTH, MAX_MARKDOWN_DEPTH } from "./markdown-nesting";

const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const ANCHOR = /\s*\{#([^}\s]+)\}\s*$/;

function frontMatter(yaml: string): { title: string | null; aliases: string[] } {
  let title: string | null = null;
  const aliases: string[] = [];
  const lines = yaml.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const m = /^(title|aliases|alias)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const value = (m[2] ?? "").trim();
    if (m[1] === "title") {
      title = value.replace(/^['"]|['"]$/g, "") || null;
    } else if (value.startsWith("[")) {
      aliases.push(
        ...value
          .slice(1, -1)
          .split(",")
          .map((a) => a.trim().replace(/^['"]|['"]$/g, ""))
          .filter(Boolean),
      );
    } else if (value) {
      aliases.push(value.replace(/^['"]|['"]$/g, ""));
    } else {
      for (let j = i + 1; j < lines.length && /^\s*-\s+/.test(lines[j] ?? ""); j++) {
        aliases.push(
          (lines[j] ?? "")
            .replace(/^\s*-\s+/, "")
            .trim()
            .replace(/^['"]|['"]$/g, ""),
        );
      }
    }
  }
  return { title, aliases };
}

const ROLE: Partial<Record<Token["type"], "code" | "table" | "list" | "quote" | "paragraph">> = {
  code: "code",
  table: "table",
  list: "list",
  blockquote: "quote",
  paragraph: "paragraph",
  text: "paragraph",
  html: "paragraph",
};

/** Throws ConversionLimit for text nested past the limits. */
export function convertMarkdown(source: string): ParsedDocument {
  let text = source.replace(/\r\n?/g, "\n");
  let meta: { title: string | null; aliases: string[] } = { title: null, aliases: [] };
  const fm = FRONT_MATTER.exec(text);
  if (fm) {
    meta = frontMatter(fm[1] ?? "");
    text = text.slice(fm[0].length);
  }
  const nesting = checkMarkdownNesting(text);
  if (!nesting.ok)
    throw new ConversionLimit(
      "too-deep",
      nesting.what === "emphasis"
        ? `emphasis nests deeper than ${MAX_EMPHASIS_DEPTH} levels in the paragraph at line ${nesting.line} (the limit)`
        : `lists and quotes nest deeper than ${MAX_MARKDOWN_DEPTH} levels at line ${nesting.line} (the limit)`,
    );
  const blocks: Block[] = [];
  let firstH1: string | null = null;
  for (const token of new Lexer({ gfm: true }).lex(text)) {
    if (token.type === "heading") {
      const heading = token as Tokens.Heading;
      const anchor = ANCHOR.exec(heading.text)?.[1];
      const title = heading.text.replace(ANCHOR, "").trim();
      if (heading.depth === 1 && firstH1 === null) firstH1 = title;
      blocks.push({ kind: "heading", level: heading.depth, text: title, ...(anchor ? { anchor } : {}) });
      continue;
    }
    const role = ROLE[token.type];
    if (!role) continue; // space, hr, def
    const raw = token.raw.trim();
    // Layout-only HTML (`<div class="options-api">`, `</div>`) carries no text.
    if (token.type === "html" && raw.replace(/<[^>]*>/g, "").trim() === "") continue;
    if (raw) blocks.push({ kind: "text", text: raw, role });
  }
  return { title: meta.title ?? firstH1, aliases: meta.aliases, blocks };
}
