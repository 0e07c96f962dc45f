/**
 * Sentence and window splitting for chunking (docs/retrieval.md#chunking): CJK sentences end at 。！？；…
 * (plus closing quotes/brackets) with no space after them; Latin sentences end at . ! ? followed
 * by whitespace. A piece still longer than the cap splits by window, preferring a comma or a
 * space near the end of the window, so no piece ever exceeds the cap.
 */

const CJK_END = "。！？；…";
const LATIN_END = ".!?;";
const CLOSERS = "\"'”’」』）)】]》";

/** Splits text into sentences; concatenating the result gives the input back exactly. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? "";
    let end = -1;
    if (CJK_END.includes(ch)) {
      end = i + 1;
      while (end < text.length && (CJK_END.includes(text[end] ?? "") || CLOSERS.includes(text[end] ?? "")))
        end++;
    } else if (ch === "\n") {
      end = i + 1;
    } else if (LATIN_END.includes(ch)) {
      let j = i + 1;
      while (j < text.length && (LATIN_END.includes(text[j] ?? "") || CLOSERS.includes(text[j] ?? ""))) j++;
      if (j >= text.length || /\s/.test(text[j] ?? "")) end = j;
    }
    if (end > 0) {
      while (end < text.length && (text[end] === " " || text[end] === "\t")) end++;
      out.push(text.slice(start, end));
      start = end;
      i = end;
    } else {
      i++;
    }
  }
  if (start < text.length) out.push(text.slice(start));
  return out.filter((s) => s.length > 0);
}

const SOFT_BREAK = /[，、,：:\s]/;

/**
 * Cuts one piece into windows of at most `max` UTF-16 units, breaking after a comma or space
 * in the last quarter of a window when there is one, and never inside a surrogate pair.
 */
export function windowSplit(text: string, max: number): string[] {
  if (max < 2) throw new RangeError("window must be at least 2");
  const out: string[] = [];
  let start = 0;
  while (text.length - start > max) {
    let cut = start + max;
    for (let j = cut - 1; j > start + Math.floor((max * 3) / 4); j--) {
      if (SOFT_BREAK.test(text[j] ?? "")) {
        cut = j + 1;
        break;
      }
    }
    const code = text.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut--;
    out.push(text.slice(start, cut));
    start = cut;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}
