/**
 * ICU word segmentation (Intl.Segmenter) of normalized text, remembered for recent texts.
 *
 * Segmenting is the costliest step of tokenizing: about 70–90 µs for a one-line Chinese
 * message, against a few µs for everything else searchTokens does. One turn segments the same
 * few texts many times — the question for history, for each readable scope's memory query,
 * for the retrieval pipeline's coverage — and every recalled item's text once per turn in
 * which it is a candidate. The segmenter is a pure function of the string, so a cached result
 * is the result; callers get the cache's frozen array and copy it before changing anything.
 * Measured: docs/decisions/0019-word-segments-remembered-triage-in-slices.md.
 */

const WORDS = new Intl.Segmenter("zh", { granularity: "word" });
const HAS_WORD_CHAR = /[\p{L}\p{N}]/u;

/** Longer texts (documents being indexed) are segmented every time: they rarely come back. */
const MAX_CACHED_TEXT = 4_000;
/** The cache holds at most this many characters of text (a few MB of segments at most). */
const MAX_CACHED_CHARS = 200_000;

const cache = new Map<string, readonly string[]>();
let cachedChars = 0;

/** The word-like segments (holding a letter or a digit) of `normalized`, in order. */
export function wordSegments(normalized: string): readonly string[] {
  const hit = cache.get(normalized);
  if (hit !== undefined) {
    // Most recently used last: Map keeps insertion order, so the first key is the oldest.
    cache.delete(normalized);
    cache.set(normalized, hit);
    return hit;
  }
  const frozen = Object.freeze(wordSegmentsUncached(normalized));
  if (normalized.length <= MAX_CACHED_TEXT) {
    cache.set(normalized, frozen);
    cachedChars += normalized.length;
    for (const oldest of cache.keys()) {
      if (cachedChars <= MAX_CACHED_CHARS) break;
      cache.delete(oldest);
      cachedChars -= oldest.length;
    }
  }
  return frozen;
}

/** The same segmentation without the cache (tests compare the two). */
export function wordSegmentsUncached(normalized: string): string[] {
  const words: string[] = [];
  for (const s of WORDS.segment(normalized)) {
    if (s.isWordLike && HAS_WORD_CHAR.test(s.segment)) words.push(s.segment);
  }
  return words;
}

/** Texts and characters held (tests check the bound). */
export function wordSegmentCacheSize(): { texts: number; chars: number } {
  return { texts: cache.size, chars: cachedChars };
}
