/**
 * The words of one command line as it was pasted into a chat, with where each stands, so that a
 * rule can mask one argument and nothing else (docs/decisions/0570-credentials-in-command-lines.md).
 * Quotes (straight, curly and back) hold spaces; a backslash, caret or back-tick before a line
 * break continues the line. The command ends at a line break, at `;`, `|`, `&&`, `||`, at a code
 * fence, or where Chinese prose takes over: a Han character or a full-width stop outside quotes.
 * Libraries that split shell words (shell-quote and its kin) give the words but not their
 * offsets, which masking needs.
 */

export type ShellWord = {
  /** The word as written, quotes included. */
  readonly raw: string;
  /** Offset of `raw` in the text. */
  readonly start: number;
};

const OPENS: Readonly<Record<string, string>> = { "'": "'", '"': '"', "`": "`", "“": "”", "‘": "’" };
const CONTINUES = /[\\^`][ \t]*\r?\n/y;
const STOPS = /\r?\n|;|\|\||\||&&|```|[，。！？；：、（）【】《》]|\p{Script=Han}/uy;

/**
 * A command's words past which no flag is read: command lines people paste are shorter, and a
 * bound keeps a message of many commands (or one long run of words) linear to read.
 */
export const MAX_WORDS = 64;

/** The words from `from` to the end of the command that starts there, at most `max` of them. */
export function shellWords(text: string, from: number, max = MAX_WORDS): ShellWord[] {
  const words: ShellWord[] = [];
  let at = from;
  while (at < text.length && words.length < max) {
    at = skipBlanks(text, at);
    if (at >= text.length || stopsAt(text, at)) break;
    const end = wordEnd(text, at);
    words.push({ raw: text.slice(at, end), start: at });
    at = end;
  }
  return words;
}

function skipBlanks(text: string, from: number): number {
  let at = from;
  for (;;) {
    CONTINUES.lastIndex = at;
    if (CONTINUES.test(text)) at = CONTINUES.lastIndex;
    else if (text[at] === " " || text[at] === "\t") at += 1;
    else return at;
  }
}

function stopsAt(text: string, at: number): boolean {
  STOPS.lastIndex = at;
  return STOPS.test(text);
}

/** Where the word starting at `from` ends: a blank or a stop outside quotes; an unclosed quote runs to the line's end. */
function wordEnd(text: string, from: number): number {
  let at = from;
  while (at < text.length) {
    const c = text[at] as string;
    if (c === " " || c === "\t" || stopsAt(text, at)) return at;
    const close = OPENS[c];
    if (close !== undefined) {
      const shut = text.indexOf(close, at + 1);
      const line = text.indexOf("\n", at + 1);
      at = shut >= 0 && (line < 0 || shut < line) ? shut + 1 : line < 0 ? text.length : line;
      continue;
    }
    at += c === "\\" ? 2 : 1;
  }
  return Math.min(at, text.length);
}

/** The stretch of `raw` from `offset` on, without the quotes around it: `'abc'` → `abc`. */
export function unquotedSpan(raw: string, offset: number): { readonly start: number; readonly end: number } {
  const close = OPENS[raw[offset] ?? ""];
  if (close !== undefined && raw.length - offset >= 2 && raw.endsWith(close)) {
    return { start: offset + 1, end: raw.length - 1 };
  }
  return { start: offset, end: raw.length };
}
