/**
 * A cheap token estimate for budgeting prompts without a tokenizer: CJK characters cost about
 * one token each, other text about one token per four characters. Deliberately pessimistic.
 */

/** CJK ideographs, kana and Hangul by code unit range: a loop is much cheaper than a Unicode-property regex. */
function isWide(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) || // kana
    (code >= 0x3400 && code <= 0x9fff) || // CJK ideographs (incl. extension A)
    (code >= 0xac00 && code <= 0xd7af) || // Hangul syllables
    (code >= 0xf900 && code <= 0xfaff) // compatibility ideographs
  );
}

/**
 * Characters per token at most: any text of more than `n × CHARS_PER_TOKEN_AT_MOST` characters
 * is estimated above `n` tokens, so a length alone can rule text out of a token budget.
 */
export const CHARS_PER_TOKEN_AT_MOST = 4;

export function estimateTokens(text: string): number {
  const wide = wideChars(text);
  return wide + Math.ceil((text.length - wide) / CHARS_PER_TOKEN_AT_MOST);
}

/**
 * The characters estimated at a token each. Stored per node (`nodes.wide_chars`), it lets SQL
 * bound a text's estimate from below without the text: `wide + (length − wide) / 4`.
 */
export function wideChars(text: string): number {
  let wide = 0;
  for (let i = 0; i < text.length; i++) if (isWide(text.charCodeAt(i))) wide++;
  return wide;
}

/** The longest prefix of `text` that fits `tokens`, cut at a character boundary. */
export function truncateToTokens(text: string, tokens: number): string {
  if (estimateTokens(text) <= tokens) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (estimateTokens(text.slice(0, mid)) <= tokens) lo = mid;
    else hi = mid - 1;
  }
  return `${[...text.slice(0, lo)].join("")}…`;
}
