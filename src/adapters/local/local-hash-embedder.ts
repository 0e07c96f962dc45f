/**
 * A deterministic offline embedder (local runs, tests, evaluation): feature hashing of
 * character n-grams into a fixed number of dimensions, signed, tf-damped, L2-normalized.
 * For Chinese it hashes CJK character unigrams, bigrams and trigrams, so texts that share
 * characters and short words land close together even where word segmentation differs;
 * for Latin text, words plus their character trigrams (robust to inflection and typos).
 * It knows no synonyms: it is a lexical embedding, a useful second opinion next to bm25.
 */

import { ok } from "../../domain/kernel/result";
import type { Embedder, EmbeddingModel } from "../../domain/retrieval/ports";

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD = /[\p{L}\p{N}]+/gu;
const STOP_CHARS = new Set(
  "的了是在和与就都也吗呢吧啊呀么这那有个着把被让给对从到说要会能还又很没不我你他她它们一".split(""),
);

/** FNV-1a, 32-bit. */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Feature → [base weight, count]. */
export function localFeatures(text: string): Map<string, [number, number]> {
  const features = new Map<string, [number, number]>();
  const add = (f: string, w: number) => {
    const seen = features.get(f);
    if (seen) seen[1]++;
    else features.set(f, [w, 1]);
  };
  const normalized = text.normalize("NFKC").toLowerCase();
  for (const [word] of normalized.matchAll(WORD)) {
    const chars = [...word];
    if (chars.some((c) => CJK.test(c))) {
      // Runs may mix CJK and digits/Latin; n-grams over the whole run.
      for (let i = 0; i < chars.length; i++) {
        const c = chars[i] ?? "";
        if (!STOP_CHARS.has(c)) add(`u:${c}`, 0.4);
        if (i + 1 < chars.length) add(`b:${c}${chars[i + 1]}`, 1);
        if (i + 2 < chars.length) add(`t:${c}${chars[i + 1]}${chars[i + 2]}`, 0.6);
      }
    } else {
      add(`w:${word}`, 1);
      const padded = `^${word}$`;
      if (word.length > 3)
        for (let i = 0; i + 3 <= padded.length; i++) add(`g:${padded.slice(i, i + 3)}`, 0.25);
    }
  }
  return features;
}

export class LocalHashEmbedder implements Embedder {
  readonly model: EmbeddingModel;
  readonly maxBatch = 256;

  constructor(dims = 512) {
    this.model = { id: "local-hash", version: `1-${dims}`, dims };
  }

  embedOne(text: string): number[] {
    const v = new Float64Array(this.model.dims);
    for (const [feature, [weight, count]] of localFeatures(text)) {
      const h = fnv(feature);
      const sign = h & 0x80000000 ? -1 : 1;
      const i = h % this.model.dims;
      v[i] = (v[i] ?? 0) + sign * weight * (1 + Math.log(count));
    }
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm) || 1;
    return Array.from(v, (x) => x / norm);
  }

  async embed(texts: readonly string[]) {
    return ok(texts.map((t) => this.embedOne(t)));
  }
}
