/**
 * Restatements (docs/memory.md#write-time-merge): a new statement that says again what an item of
 * the same scope already says — "郑思雨喜欢摇滚音乐" after "郑思雨喜欢摇滚音乐啊" — is merged into
 * that item instead of stored beside it. Plain and deterministic: lexical similarity over the
 * project's search tokens (search-tokens.ts, the tokens FTS indexes), when the shorter wording
 * adds no character to the longer, or, when both sides carry a vector of the same embedding
 * model, their cosine.
 *
 * What never merges, whatever the similarity:
 * - items of different scopes (a restatement in a group is not one of a private item);
 * - items of different kinds;
 * - two statements of the same fact slot (same `subjectKey`): a newer value closes the older one
 *   (supersede, fact-slot.ts), and equal wording is a duplicate the store finds by its hash;
 * - two statements of different fact slots (`attr:` keys that differ);
 * - statements whose negations or numbers differ ("会开车" / "不会开车", "两个孩子" / "三个孩子").
 *
 * Thresholds: docs/decisions/0410-write-time-merge-of-restatements.md.
 */
import { searchTokens } from "../text/search-tokens";
import type { MemoryItem } from "./memory";
import { normalizeMemoryText } from "./memory";
import { sameScope } from "./scope";

/** Thresholds chosen on the dev pairs and checked on the held pairs (decision 0410). */
export const RESTATEMENT_THRESHOLDS = Object.freeze({
  /** Dice coefficient of the two texts' distinct search tokens. */
  lexical: 0.88,
  /** Cosine of the two unit vectors of one embedding model (bge-small-zh). */
  cosine: 0.93,
});

export type RestatementThresholds = { readonly lexical: number; readonly cosine: number };

/** What the detector reads of an item or a candidate; `vector` is a unit vector, or absent. */
export type Statement = Pick<MemoryItem, "scope" | "kind" | "text" | "subjectKey"> & {
  readonly vector?: readonly number[] | null;
};

export type RestatementScore = { readonly lexical: number; readonly cosine: number | null };

/** Dice coefficient of the distinct search tokens of two texts, in [0, 1]. */
export function lexicalSimilarity(a: string, b: string): number {
  const ta = new Set(searchTokens(a));
  const tb = new Set(searchTokens(b));
  if (ta.size === 0 || tb.size === 0) return 0;
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return (2 * shared) / (ta.size + tb.size);
}

/** Cosine of two vectors of equal length; null when either is missing or they differ in length. */
export function cosine(a: readonly number[] | null | undefined, b: readonly number[] | null | undefined) {
  if (!a || !b || a.length !== b.length || a.length === 0) return null;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? null : dot / Math.sqrt(na * nb);
}

export function restatementScore(a: Statement, b: Statement): RestatementScore {
  return { lexical: lexicalSimilarity(a.text, b.text), cosine: cosine(a.vector, b.vector) };
}

/**
 * Words that turn a statement around: a negation, or a preference verb of the other sign. Not
 * the words these characters only spell: 特别, 区别, 不过, 不错, 不少, 不同, 未来.
 */
const POLARITY =
  /不(?![过错少同久断仅])|没|(?<![特区分类个性告])别|未(?!来)|勿|讨厌|受不了|反感|厌恶|\bnot\b|n't|\bnever\b|\bno\b|\bdislike|\bhate/giu;
/** Digits, and Chinese numerals but 一 (一直, 一些, 一起 are no counts). */
const NUMBER = /\d+(?:\.\d+)?|[两三四五六七八九十百千万亿]+/gu;

const marks = (text: string, re: RegExp) =>
  [...text.normalize("NFKC").toLowerCase().matchAll(re)]
    .map((m) => m[0])
    .sort()
    .join("|");

/** True when the two texts can say the same thing: equal negations and equal numbers. */
export function samePolarity(a: string, b: string): boolean {
  return marks(a, POLARITY) === marks(b, POLARITY) && marks(a, NUMBER) === marks(b, NUMBER);
}

/**
 * True when the shorter wording adds no character the longer lacks ("摇滚音乐" in "摇滚音乐啊",
 * "喜剧和爱情片" in "爱情片和喜剧"): what lexical similarity alone may merge. A character only one
 * side has — "复查甲" and "复查乙", "小白" and "小黑" — is a value that may differ, and only vectors
 * may judge it a paraphrase.
 */
export function addsNoCharacter(a: string, b: string): boolean {
  const [short, long] = [normalizeMemoryText(a), normalizeMemoryText(b)].sort((x, y) => x.length - y.length);
  const have = new Set(long);
  return [...(short ?? "")].every((ch) => have.has(ch));
}

/** Why two statements may never merge, or null when only their similarity decides. */
export function mergeBarrier(a: Statement, b: Statement): string | null {
  if (!sameScope(a.scope, b.scope)) return "different scopes";
  if (a.kind !== b.kind) return "different kinds";
  if (a.subjectKey && b.subjectKey) {
    if (a.subjectKey === b.subjectKey) return "same slot: supersede decides";
    if (a.subjectKey.startsWith("attr:") && b.subjectKey.startsWith("attr:")) return "different slots";
  }
  if (normalizeMemoryText(a.text) === normalizeMemoryText(b.text)) return null;
  if (!samePolarity(a.text, b.text)) return "negation or number differs";
  return null;
}

/** True when `b` restates `a`: no barrier, and lexically or (with vectors) semantically close. */
export function isRestatement(
  a: Statement,
  b: Statement,
  t: RestatementThresholds = RESTATEMENT_THRESHOLDS,
): RestatementScore | null {
  if (mergeBarrier(a, b) !== null) return null;
  const score = restatementScore(a, b);
  if (score.lexical >= t.lexical && addsNoCharacter(a.text, b.text)) return score;
  if (score.cosine !== null && score.cosine >= t.cosine) return score;
  return null;
}

/** The existing item `candidate` restates best (highest score), or null. */
export function findRestatement<T extends Statement>(
  candidate: Statement,
  existing: readonly T[],
  t: RestatementThresholds = RESTATEMENT_THRESHOLDS,
): { readonly item: T; readonly score: RestatementScore } | null {
  let best: { item: T; score: RestatementScore } | null = null;
  for (const item of existing) {
    const score = isRestatement(item, candidate, t);
    if (!score) continue;
    const value = Math.max(score.lexical, score.cosine ?? 0);
    if (!best || value > Math.max(best.score.lexical, best.score.cosine ?? 0)) best = { item, score };
  }
  return best;
}
