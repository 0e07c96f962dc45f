/**
 * The offline daily summary: the day's most replied-to and most central messages, quoted.
 * Centrality is TextRank over the messages — a similarity graph of TF-IDF vectors built from
 * the project's search tokens (ICU words plus CJK bigrams, so Chinese needs no dictionary
 * here), ranked by weighted PageRank — and reply links from the log add to a message's
 * score. The topics line lists the day's highest-weighted terms.
 */
import { searchTokens } from "../text/search-tokens";
import type { DayMessage } from "./day-message";

/** Chat filler that says nothing about a topic; IDF lowers the rest of the common words. */
const FILLER: ReadonlySet<string> = new Set(
  "哈哈 哈哈哈 什么 这个 那个 我们 你们 他们 就是 还是 可以 没有 知道 觉得 现在 今天 一下 怎么 为什么 真的 好的 是的 不是 已经 因为 所以 然后 但是 如果 这样 那样 一个 有点 图片 表情 the and for you are that this with have".split(
    " ",
  ),
);
const DAMPING = 0.85;
const ITERATIONS = 30;
const QUOTE_CHARS = 80;
const KEYWORDS = 5;

export type ExtractiveSummary = {
  readonly keywords: readonly string[];
  /** The quoted messages, in the order they were said. */
  readonly picked: readonly DayMessage[];
};

function termsOf(text: string): string[] {
  return searchTokens(text).filter((t) => [...t].length >= 2 && !FILLER.has(t) && !/^\d+$/.test(t));
}

type Vector = Map<string, number>;

function cosine(a: Vector, b: Vector, normA: number, normB: number): number {
  if (normA === 0 || normB === 0) return 0;
  let dot = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const [t, w] of small) dot += w * (large.get(t) ?? 0);
  return dot / (normA * normB);
}

/** Picks `count` messages and the day's keywords. Commands and bare media never count. */
export function extractiveSummary(messages: readonly DayMessage[], count: number): ExtractiveSummary {
  const usable = messages.filter((m) => !m.text.trimStart().startsWith("/") && termsOf(m.text).length > 0);
  if (usable.length === 0) return { keywords: [], picked: [] };
  const terms = usable.map((m) => termsOf(m.text));
  const df = new Map<string, number>();
  for (const ts of terms) for (const t of new Set(ts)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = usable.length;
  const idf = (t: string) => Math.log(1 + n / (df.get(t) ?? 1));
  const vectors: Vector[] = terms.map((ts) => {
    const v: Vector = new Map();
    for (const t of ts) v.set(t, (v.get(t) ?? 0) + 1);
    for (const [t, tf] of v) v.set(t, tf * idf(t));
    return v;
  });
  const norms = vectors.map((v) => Math.sqrt([...v.values()].reduce((s, w) => s + w * w, 0)));

  // TextRank: weighted PageRank over pairwise similarity.
  const sim: number[][] = vectors.map((a, i) =>
    vectors.map((b, j) => (i === j ? 0 : cosine(a, b, norms[i] ?? 0, norms[j] ?? 0))),
  );
  const out = sim.map((row) => row.reduce((s, w) => s + w, 0));
  let rank = new Array<number>(n).fill(1 / n);
  for (let it = 0; it < ITERATIONS; it++) {
    rank = rank.map((_, i) => {
      let s = 0;
      for (let j = 0; j < n; j++) {
        const w = sim[j]?.[i] ?? 0;
        const o = out[j] ?? 0;
        if (w > 0 && o > 0) s += (w / o) * (rank[j] ?? 0);
      }
      return (1 - DAMPING) / n + DAMPING * s;
    });
  }

  // Replies received from someone else, by the quoted message's id.
  const byId = new Map(usable.map((m) => [m.messageId, m] as const));
  const replies = new Map<string, number>();
  for (const m of messages) {
    if (!m.replyTo) continue;
    const target = byId.get(m.replyTo);
    if (!target || (target.userId !== null && target.userId === m.userId)) continue;
    replies.set(m.replyTo, (replies.get(m.replyTo) ?? 0) + 1);
  }
  const maxRank = Math.max(...rank);
  const maxReplies = Math.max(0, ...replies.values());
  const score = usable.map(
    (m, i) =>
      (rank[i] ?? 0) / maxRank +
      (maxReplies > 0 ? Math.log1p(replies.get(m.messageId) ?? 0) / Math.log1p(maxReplies) : 0),
  );

  const order = usable.map((_, i) => i).sort((a, b) => (score[b] ?? 0) - (score[a] ?? 0) || a - b);
  const chosen: number[] = [];
  for (const i of order) {
    if (chosen.length >= count) break;
    // A near-repeat of a chosen message adds nothing.
    if (chosen.some((j) => (sim[i]?.[j] ?? 0) > 0.8)) continue;
    chosen.push(i);
  }
  chosen.sort((a, b) => a - b);

  const weight = new Map<string, number>();
  terms.forEach((ts, i) => {
    for (const t of new Set(ts)) weight.set(t, (weight.get(t) ?? 0) + (score[i] ?? 0) * idf(t));
  });
  const ranked = [...weight.entries()]
    .filter(([t]) => (df.get(t) ?? 0) >= Math.min(2, n))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const keywords: string[] = [];
  for (const [t] of ranked) {
    if (keywords.length >= KEYWORDS) break;
    // A bigram inside a chosen word (or the reverse) names the same topic twice.
    if (keywords.some((k) => k.includes(t) || t.includes(k))) continue;
    keywords.push(t);
  }
  return { keywords, picked: chosen.map((i) => usable[i] as DayMessage) };
}

export function clipQuote(text: string, max = QUOTE_CHARS): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : chars.join("");
}
