/**
 * A deterministic local reranker (offline counterpart of the Workers AI cross-encoder):
 * scores each candidate's raw text by how much of the question it covers, weighting every
 * query feature by its rarity among the candidates themselves (so the document's name,
 * shared by all its passages, stops counting and the words that tell passages apart count
 * most), plus the longest stretch of the question that occurs verbatim. Character unigrams
 * catch Chinese paraphrases that share a character (出名/闻名, 用途/用于) where bigram bm25
 * sees nothing. It knows no synonyms; it orders candidates, it does not find them.
 */
import { ok } from "../kernel/result";
import { normalizeForSearch } from "../text/search-tokens";
import type { Reranker } from "./ports";

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD = /[\p{L}\p{N}]+/gu;
/** Question words and particles: they say what is asked, not what the answer contains. */
const QUESTION_CHARS = new Set(
  "的了是在和与就都也吗呢吧啊呀么这那有个着把被让给对从到说要会能还又很没不我你他她它们什哪谁几多少怎何为吗".split(
    "",
  ),
);

function features(text: string): { unigrams: Set<string>; bigrams: Set<string>; words: Set<string> } {
  const unigrams = new Set<string>();
  const bigrams = new Set<string>();
  const words = new Set<string>();
  for (const [run] of normalizeForSearch(text).matchAll(WORD)) {
    const chars = [...run];
    if (!chars.some((c) => CJK.test(c))) {
      words.add(run);
      continue;
    }
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i] ?? "";
      if (!QUESTION_CHARS.has(c)) unigrams.add(c);
      if (i + 1 < chars.length) bigrams.add(c + (chars[i + 1] ?? ""));
    }
  }
  return { unigrams, bigrams, words };
}

/** Length of the longest substring of `query` (normalized) found in `text`. */
function longestShared(query: string, text: string): number {
  let best = 0;
  for (let i = 0; i < query.length; i++) {
    let len = best + 1;
    while (i + len <= query.length && text.includes(query.slice(i, i + len))) {
      best = len;
      len++;
    }
  }
  return best;
}

export function lexicalScores(query: string, texts: readonly string[]): number[] {
  const q = features(query);
  const docs = texts.map(features);
  const normalizedTexts = texts.map(normalizeForSearch);
  const n = texts.length;
  const idf = (has: (i: number) => boolean) => {
    let df = 0;
    for (let i = 0; i < n; i++) if (has(i)) df++;
    return Math.log((n + 1) / (df + 0.5));
  };
  const weighted: { kind: "u" | "b" | "w"; f: string; w: number }[] = [];
  for (const f of q.unigrams)
    weighted.push({ kind: "u", f, w: 0.5 * idf((i) => docs[i]?.unigrams.has(f) ?? false) });
  for (const f of q.bigrams) weighted.push({ kind: "b", f, w: idf((i) => docs[i]?.bigrams.has(f) ?? false) });
  for (const f of q.words) weighted.push({ kind: "w", f, w: idf((i) => docs[i]?.words.has(f) ?? false) });
  const total = weighted.reduce((s, x) => s + Math.max(0, x.w), 0) || 1;
  const qText = normalizeForSearch(query).replace(/[^\p{L}\p{N}]/gu, "");
  return docs.map((d, i) => {
    let covered = 0;
    for (const x of weighted) {
      const has =
        x.kind === "u" ? d.unigrams.has(x.f) : x.kind === "b" ? d.bigrams.has(x.f) : d.words.has(x.f);
      if (has) covered += Math.max(0, x.w);
    }
    const run = qText.length > 0 ? longestShared(qText, normalizedTexts[i] ?? "") / qText.length : 0;
    return covered / total + 0.5 * run;
  });
}

export class LexicalReranker implements Reranker {
  async rerank(query: string, texts: readonly string[]) {
    return ok(lexicalScores(query, texts));
  }
}
