/**
 * The trained reader of credential values: a logistic regression that reads each run of four or
 * more printable ASCII characters the rules left, from the words just before it, the words just
 * after it and its own shape (character classes, length, randomness, its letters). The rules
 * (credentials.ts) read the wordings they were written for; the reader serves where a new way of
 * saying "this is my password" leaves the value to no rule
 * (docs/decisions/0640-a-trained-reader-of-credential-values.md). Its weights are trained by
 * `npm run privacy:train` (scripts/privacy/train-credential-reader.mjs) on the credential
 * corpus' dev split, the blind sets that were read
 * (docs/decisions/0930-the-reader-learns-from-the-read-sets.md) and half of the shared ordinary chat.
 */
import { isNamedNonSecret, shannonEntropy } from "./credential-entropy";
import { CREDENTIAL_READER_MODEL } from "./credential-reader-weights";
import { logisticScore, unpackWeights } from "./packed-weights";
import { urlSpans } from "./url-spans";

/** How many hashed features a reading can land on. */
export const CREDENTIAL_READER_FEATURES = 1 << 18;

/**
 * How sure the reader must be: the lowest threshold at which five folds of the training messages
 * changed no ordinary message (docs/decisions/0660-the-reader-learns-values-given-without-a-keyword.md),
 * kept when the read sets made a lower one pass in one order of the rows only
 * (docs/decisions/0930-the-reader-learns-from-the-read-sets.md).
 */
export const CREDENTIAL_READER_THRESHOLD = 0.9;

/** Past this length a text is a document, not a message: the reader leaves it to the rules. */
export const CREDENTIAL_READER_MAX_TEXT = 2000;

/** A run the reader reads: printable ASCII without spaces, four or more characters. */
const RUN = /[!-~]{4,}/gu;
/** Punctuation that opens or closes a run without being part of the value. */
const OPENING = /^[:=,;'"`([{<]+/u;
const CLOSING = /[,;:'"`)\]}>.]+$/u;

export type ValueCandidate = { readonly start: number; readonly end: number; readonly features: number[] };

/** FNV-1a over the feature's name, folded onto the feature space. */
function featureId(name: string): number {
  let x = 0x811c9dc5;
  for (let u = 0; u < name.length; u++) x = Math.imul(x ^ name.charCodeAt(u), 0x01000193) >>> 0;
  return x % CREDENTIAL_READER_FEATURES;
}

/**
 * Adds the ids of the 1- to `upTo`-grams of `text` to `ids`, each gram hashed with its side
 * (`side`: a letter for before, after or the value) and its length, without building strings:
 * the reader reads every English word of a message.
 */
function addGrams(ids: Set<number>, side: string, text: string, upTo: number): void {
  const seed = Math.imul(0x811c9dc5 ^ side.charCodeAt(0), 0x01000193) >>> 0;
  for (let i = 0; i < text.length; i++) {
    let x = seed;
    for (let n = 1; n <= upTo && i + n <= text.length; n++) {
      x = Math.imul(x ^ text.charCodeAt(i + n - 1), 0x01000193) >>> 0;
      ids.add((Math.imul(x ^ n, 0x01000193) >>> 0) % CREDENTIAL_READER_FEATURES);
    }
  }
}

function classOf(c: string): string {
  const u = c.charCodeAt(0);
  if (u >= 97 && u <= 122) return "a";
  if (u >= 65 && u <= 90) return "A";
  return u >= 48 && u <= 57 ? "9" : c;
}

const LENGTHS = [4, 5, 6, 7, 8, 10, 13, 17, 25, 33];
const bucket = (n: number, edges: readonly number[]): number => edges.filter((e) => n >= e).length;

/** The value's own features: its shape, classes, length, randomness and letters. */
function shapeFeatures(value: string): string[] {
  const classes = Array.from(value, classOf);
  const runs = classes.filter((c, i) => c !== classes[i - 1]).join("");
  const kinds =
    [..."aA9"].filter((k) => classes.includes(k)).join("") +
    (classes.some((c) => !"aA9".includes(c)) ? "p" : "");
  return [
    `S:${runs.slice(0, 12)}`,
    `K:${kinds}`,
    `N:${bucket(value.length, LENGTHS)}`,
    `KN:${kinds}/${bucket(value.length, LENGTHS)}`,
    `H:${Math.round(shannonEntropy(value) * 2)}`,
    `T:${Math.min(runs.length, 6)}`,
  ];
}

/**
 * The reading of one run: its shape, its letters, and the words around it — the ten characters
 * before it and the six after, spaces folded.
 */
function runFeatures(text: string, start: number, end: number): number[] {
  const value = text.slice(start, end);
  const before = text
    .slice(Math.max(0, start - 10), start)
    .toLowerCase()
    .replace(/\s+/gu, " ");
  const after = text
    .slice(end, end + 6)
    .toLowerCase()
    .replace(/\s+/gu, " ");
  const ids = new Set(
    [...shapeFeatures(value), `LE:${before.slice(-2)}`, `RE:${after.slice(0, 1)}`].map(featureId),
  );
  addGrams(ids, "V", `^${value.toLowerCase().slice(0, 24)}$`, 3);
  addGrams(ids, "L", `^${before}`, 3);
  addGrams(ids, "R", `${after}$`, 2);
  return [...ids];
}

/**
 * Hex strings this long are digests, UUIDs and commit hashes, pasted on purpose; a hex key is
 * masked by the rules after a keyword (credential-entropy.ts). Shorter ones ("abc123") are read.
 */
const LONG_HEX = /^(?=.*\d)[0-9a-f-]{12,}$/i;

/**
 * The runs of `text` the reader reads, each with its features: not the strings the rules chose
 * as no secret (a link, a chat or account key, an id this system mints, a long hex string).
 */
export function valueCandidates(text: string): ValueCandidate[] {
  const out: ValueCandidate[] = [];
  const urls = urlSpans(text);
  for (const m of text.matchAll(RUN)) {
    const opening = OPENING.exec(m[0])?.[0].length ?? 0;
    const value = m[0].slice(opening).replace(CLOSING, "");
    if (value.length < 4) continue;
    const start = m.index + opening;
    const end = start + value.length;
    if (urls.some(([s, e]) => start < e && s < end) || LONG_HEX.test(value)) continue;
    if (isNamedNonSecret(value, text.slice(Math.max(0, start - 48), start))) continue;
    out.push({ start, end, features: runFeatures(text, start, end) });
  }
  return out;
}

let weights: Map<number, number> | null = null;

/** The reader's probability that a candidate is a secret value. */
export function credentialReaderScore(candidate: ValueCandidate): number {
  weights ??= unpackWeights(CREDENTIAL_READER_MODEL);
  return logisticScore(CREDENTIAL_READER_MODEL, weights, candidate.features);
}

/**
 * Commands whose arguments are ids the bot gave out or reads back: a memory id typed short
 * (`/forget 04hx7ej`), a chat or account, a reminder's number. Masked, the command would no
 * longer find what it names; `/remember` and `/claim` are not among them.
 */
const ID_COMMAND = /^\s*\/(?:forget|share|follow|unfollow|identity|session|reminders)(?:\s|$)/iu;

/** Whether `text` is a command whose arguments name what the bot gave out: no reader reads it. */
export const namesWhatTheBotGaveOut = (text: string): boolean => ID_COMMAND.test(text);

/**
 * The runs of `text` the reader takes for secret values, leaving those that overlap a span
 * already found (`taken`): the rules' findings are where the rules put them.
 */
export function readCredentialValues(
  text: string,
  taken: readonly { start: number; end: number }[],
): { start: number; end: number }[] {
  if (text.length > CREDENTIAL_READER_MAX_TEXT || namesWhatTheBotGaveOut(text)) return [];
  return valueCandidates(text)
    .filter((c) => !taken.some((t) => t.start < c.end && c.start < t.end))
    .filter((c) => credentialReaderScore(c) >= CREDENTIAL_READER_THRESHOLD)
    .map(({ start, end }) => ({ start, end }));
}
