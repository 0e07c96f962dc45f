/**
 * Secrets laid out over lines rather than said in a sentence (decision 0580):
 *
 * - a table pasted from a spreadsheet, whose header row names a password column
 *   ("姓名\t账号\t初始密码", "| user | password |"): that column's cell of every row below;
 * - a list of codes under a line that names recovery or backup codes ("github 的恢复码：" then
 *   one code a line): each code of the list.
 *
 * Only the values are masked, so the table and the list stay readable.
 */
import { isPlaceholder, type PhraseMatch } from "./credential-phrases";

const PASSWORD_HEADER = /密码|口令|密钥|秘钥|pass(?:word|wd)?|pwd|secret|token/i;
const CODES_LINE = /恢复码|备用码|备份码|救援码|恢复代码|recovery\s+codes?|backup\s+codes?/i;
/** One code a line, maybe numbered: `4f2a1-9c8e3`, `1. 8273 6619`. */
const CODE = /^[ \t]*(?:\d{1,2}[.)、][ \t]*)?(?<code>[A-Za-z0-9]{4,10}(?:[- ][A-Za-z0-9]{3,10})?)[ \t]*$/d;
const MAX_ROWS = 50;

type Line = { readonly text: string; readonly start: number };

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (const text_ of text.split("\n")) {
    out.push({ text: text_, start });
    start += text_.length + 1;
  }
  return out;
}

/** The cells of a row and where each starts in it, split by tabs or by the pipes of a markdown table. */
function cellsOf(line: string, separator: "\t" | "|"): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  let at = 0;
  for (const raw of line.split(separator)) {
    const lead = raw.length - raw.trimStart().length;
    out.push({ text: raw.trim(), at: at + lead });
    at += raw.length + 1;
  }
  return out;
}

function tableCells(lines: readonly Line[]): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  lines.forEach((header, h) => {
    const separator = header.text.includes("\t") ? "\t" : /^\s*\|.*\|\s*$/.test(header.text) ? "|" : null;
    if (!separator) return;
    const column = cellsOf(header.text, separator).findIndex(
      (c) => c.text.length <= 12 && PASSWORD_HEADER.test(c.text),
    );
    if (column < 0) return;
    for (const row of lines.slice(h + 1, h + 1 + MAX_ROWS)) {
      if (!row.text.includes(separator)) break;
      const cell = cellsOf(row.text, separator)[column];
      if (!cell || cell.text.length < 3 || /^[-:\s]+$/.test(cell.text) || isPlaceholder(cell.text)) continue;
      out.push({ start: row.start + cell.at, end: row.start + cell.at + cell.text.length, id: "table-cell" });
    }
  });
  return out;
}

function codeLists(lines: readonly Line[]): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  lines.forEach((named, n) => {
    if (!CODES_LINE.test(named.text)) return;
    for (const line of lines.slice(n + 1, n + 1 + MAX_ROWS)) {
      const at = CODE.exec(line.text)?.indices?.groups?.code;
      if (!at) break;
      out.push({ start: line.start + at[0], end: line.start + at[1], id: "code-list" });
    }
  });
  return out;
}

/** Every password cell of a pasted table and every code of a recovery-code list in `text`. */
export function findLaidOutValues(text: string): PhraseMatch[] {
  if (!text.includes("\n")) return [];
  const lines = linesOf(text);
  return [...tableCells(lines), ...codeLists(lines)];
}
