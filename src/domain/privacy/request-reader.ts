/**
 * The trained reader of privacy requests: a logistic regression over the hashed character 1-, 2-
 * and 3-grams of a message, as requests are read (request-text.ts). The phrase rules
 * (privacy-request-rules.ts) read the wordings they were written for and say where the request
 * is; in the words of a writer they have not met they miss about a third
 * (docs/experiments/0620-privacy-requests-a-fifth-blind-set.md). The reader reads the whole
 * message and answers only whether it asks for privacy, so it serves where no rule reads one
 * (docs/decisions/0630-a-trained-reader-of-privacy-requests.md). Its weights are trained by
 * `npm run privacy:train` (scripts/privacy/train-request-reader.mjs) on the labelled corpus' dev
 * split, the tuned halves of the blind sets, the reader's halves of sets p, q and r (no rule was
 * written from them) and half of the shared ordinary chat.
 */
import { logisticScore, unpackWeights } from "./packed-weights";
import { READER_MODEL } from "./request-reader-weights";
import { blankQuotes, requestText } from "./request-text";

/** How many hashed features a gram can land on. */
export const READER_FEATURES = 1 << 18;

/**
 * How sure the reader must be. Chosen on the training rows' out-of-fold scores, where it added
 * requests the rules miss for few near misses (docs/decisions/0630-a-trained-reader-of-privacy-requests.md).
 */
export const READER_THRESHOLD = 0.9;

/** FNV-1a over the gram's UTF-16 code units, seeded by its length. */
function gramId(chars: readonly string[], at: number, n: number): number {
  let x = (0x811c9dc5 ^ n) >>> 0;
  for (let k = at; k < at + n; k++) {
    const c = chars[k] ?? "";
    for (let u = 0; u < c.length; u++) x = Math.imul(x ^ c.charCodeAt(u), 0x01000193) >>> 0;
  }
  return x % READER_FEATURES;
}

/** The distinct feature ids of `text`: its 1-, 2- and 3-grams, spaces folded, ends marked. */
export function requestGrams(text: string): number[] {
  const read = blankQuotes(requestText(text).text).replace(/\s+/gu, " ").trim();
  const chars = Array.from(` ${read} `);
  const out = new Set<number>();
  for (let n = 1; n <= 3; n++) {
    for (let i = 0; i + n <= chars.length; i++) out.add(gramId(chars, i, n));
  }
  return [...out];
}

let weights: Map<number, number> | null = null;

/** The reader's probability that `text` asks for privacy, from the model's features. */
export function requestReaderScore(text: string): number {
  weights ??= unpackWeights(READER_MODEL);
  return logisticScore(READER_MODEL, weights, requestGrams(text));
}

/** Whether the reader takes `text` for a privacy request. */
export function readsAsRequest(text: string): boolean {
  return text.trim() !== "" && requestReaderScore(text) >= READER_THRESHOLD;
}
