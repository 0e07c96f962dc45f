/**
 * How deeply a Markdown text nests, measured line by line before the lexer sees it. `marked`
 * lexes every list item's and block quote's content again one level down, and nests emphasis
 * by recursion: a few thousand nested list levels exhaust the heap of the whole runtime, and a
 * few thousand nested emphasis spans cost seconds each. Real documents nest a handful of
 * levels (docs/decisions/0140-document-conversion-limits.md).
 *
 * Both measures only ever overcount what the lexer nests (code blocks are measured like any
 * other line, a tab counts as four columns), so no text the lexer would nest deeply passes.
 */

/** The deepest nesting of lists and block quotes accepted. */
export const MAX_MARKDOWN_DEPTH = 32;
/** The most emphasis delimiters (`*`, `_`) a paragraph may hold open at once. */
export const MAX_EMPHASIS_DEPTH = 64;

/** One container marker: a block quote `>`, or a bullet or ordered list marker and its space. */
const MARKER = /^(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]*/;
const SPACE = /\s/u;
const PUNCTUATION = /[\p{P}\p{S}]/u;

/**
 * The list and quote nesting a line opens: the container markers it starts with plus, for a
 * line that opens one, its indentation in steps of two columns (the least a nested list
 * indents by).
 */
function containerDepth(line: string): number {
  let columns = 0;
  let i = 0;
  for (; i < line.length && (line[i] === " " || line[i] === "\t"); i++) columns += line[i] === "\t" ? 4 : 1;
  let tail = line.slice(i);
  let markers = 0;
  for (let m = MARKER.exec(tail); m; m = MARKER.exec(tail)) {
    markers++;
    tail = tail.slice(m[0].length);
  }
  return markers === 0 ? 0 : markers + Math.floor(columns / 2);
}

/**
 * Emphasis delimiters held open after each run of `*` or `_` in a paragraph: a run that can
 * only open (followed by text, preceded by space or punctuation) adds its length, one that can
 * only close subtracts it. Balanced text stays near zero; nested openers climb.
 */
function emphasisDepth(paragraph: string, limit: number): boolean {
  let open = 0;
  for (let i = 0; i < paragraph.length; ) {
    const ch = paragraph[i];
    if (ch !== "*" && ch !== "_") {
      i++;
      continue;
    }
    let end = i;
    while (paragraph[end] === ch) end++;
    const before = paragraph[i - 1] ?? " ";
    const after = paragraph[end] ?? " ";
    const opens = !SPACE.test(after) && (SPACE.test(before) || PUNCTUATION.test(before));
    const closes = !SPACE.test(before) && (SPACE.test(after) || PUNCTUATION.test(after));
    if (opens && !closes) open += end - i;
    else if (closes && !opens) open = Math.max(0, open - (end - i));
    if (open > limit) return true;
    i = end;
  }
  return false;
}

export type MarkdownNesting =
  | { readonly ok: true }
  | { readonly ok: false; readonly what: "lists and quotes" | "emphasis"; readonly line: number };

/** Whether the text stays within both limits; else what is too deep and on which line (1-based). */
export function checkMarkdownNesting(
  text: string,
  limits = { containers: MAX_MARKDOWN_DEPTH, emphasis: MAX_EMPHASIS_DEPTH },
): MarkdownNesting {
  const lines = text.split("\n");
  let paragraph: string[] = [];
  let paragraphStart = 0;
  const emphasisOk = () => !emphasisDepth(paragraph.join("\n"), limits.emphasis);
  for (let i = 0; i <= lines.length; i++) {
    const line = lines[i];
    if (line === undefined || line.trim() === "") {
      if (paragraph.length > 0 && !emphasisOk())
        return { ok: false, what: "emphasis", line: paragraphStart + 1 };
      paragraph = [];
      continue;
    }
    if (containerDepth(line) > limits.containers) return { ok: false, what: "lists and quotes", line: i + 1 };
    if (paragraph.length === 0) paragraphStart = i;
    paragraph.push(line);
  }
  return { ok: true };
}
