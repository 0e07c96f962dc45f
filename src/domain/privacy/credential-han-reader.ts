/**
 * The trained reader of values written in Chinese words ("口令是 停车坐爱枫林晚", "猫咪喵喵，你要用自己解"):
 * a logistic regression over the stretches of Han text between punctuation and spaces, and the
 * rest of a stretch after a word that hands a value over ("是", "成", "填"), each read from its own
 * characters, the characters just before and after it, and the words of the rest of the message.
 * The ASCII reader (credential-reader.ts) reads no Han value, and rules written from one writer's
 * wordings took almost none of the next writer's
 * (docs/decisions/0970-a-reader-of-chinese-word-values.md). Trained by `npm run privacy:train`
 * (scripts/privacy/train-han-reader.mjs) on the read blind sets, ordinary messages that set a phrase
 * apart as a value is, and half of the shared ordinary chat.
 */
import { CREDENTIAL_HAN_READER_MODEL } from "./credential-han-reader-weights";
import { namesWhatTheBotGaveOut } from "./credential-reader";
import { logisticScore, unpackWeights } from "./packed-weights";

/** How many hashed features a reading can land on. */
export const HAN_READER_FEATURES = 1 << 18;

/** How sure the reader must be (docs/decisions/0970-a-reader-of-chinese-word-values.md). */
export const HAN_READER_THRESHOLD = 0.95;

/** Past this length a text is a document, not a message: the reader leaves it to the rules. */
const MAX_TEXT = 600;

/** What ends a stretch: spaces, punctuation of both widths, quotes and brackets. */
const STRETCH = /[^\s，。！？、；：,.!?;:"'“”‘’「」『』【】《》〈〉()（）[\]{}<>…—~～·|/\\]+/gu;
/** A word after which the rest of a stretch is handed over as a value. */
const HANDS_OVER = /(?:就是|是|成|为|填|输|答|回|叫|用)/gu;
const HAN = /\p{Script=Han}/gu;

export type HanCandidate = { readonly start: number; readonly end: number; readonly features: number[] };

/** FNV-1a over `text` with a seed for its side, folded onto the feature space. */
function hashed(seed: string, text: string): number {
  let x = 0x811c9dc5;
  for (const s of [seed, "\u0000", text])
    for (let u = 0; u < s.length; u++) x = Math.imul(x ^ s.charCodeAt(u), 0x01000193) >>> 0;
  return x % HAN_READER_FEATURES;
}

/** The 1- and 2-grams of `text` on side `side`. */
function grams(side: string, text: string): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < text.length; i++) {
    out.push([side, text[i] as string]);
    if (i + 1 < text.length) out.push([`${side}2`, text.slice(i, i + 2)]);
  }
  return out;
}

/** A command's name at the start of a message ("/remember "): an instruction, not what is said. */
const COMMAND = /^\s*\/[a-z]+\s*/iu;

/**
 * The 2-grams of the message around a stretch, not of the stretch itself: they say whether the
 * message speaks of a password, and a value learned once must not be a password wherever it is said.
 */
function restOfMessage(text: string, start: number, end: number): string[][] {
  const rest = `${text.slice(0, start)}\u0000${text.slice(end)}`.replace(COMMAND, "").replace(/\s+/gu, " ");
  return grams("M", rest).filter(([side, g]) => side === "M2" && !(g as string).includes("\u0000"));
}

const hanCount = (s: string): number => s.match(HAN)?.length ?? 0;
const LENGTHS = [2, 3, 4, 5, 6, 8, 10, 13, 17];
const bucket = (n: number): number => LENGTHS.filter((e) => n >= e).length;

/**
 * The reading of one stretch: its characters, its length and how much of it is Han, the ten
 * characters before and six after (spaces folded to one), the two that touch it, and the
 * 2-grams of the rest of the message, which say whether it speaks of a password at all.
 */
function stretchFeatures(text: string, start: number, end: number): number[] {
  const value = text.slice(start, end);
  const before = text.slice(Math.max(0, start - 10), start).replace(/\s+/gu, " ");
  const after = text.slice(end, end + 6).replace(/\s+/gu, " ");
  const han = hanCount(value);
  const parts: string[][] = [
    ["N", String(bucket(value.length))],
    ["H", String(Math.round((han / value.length) * 4))],
    ["D", String(/\d/u.test(value))],
    ["A", String(/[a-z]/iu.test(value))],
    ["LE", before.slice(-2)],
    ["LE1", before.slice(-1)],
    ["RE", after.slice(0, 1)],
    ["W", String(start === 0 && end === text.length)],
    ...grams("V", `^${value.slice(0, 16)}$`),
    ...grams("L", `^${before}`),
    ...grams("R", `${after}$`),
    ...restOfMessage(text, start, end),
  ];
  return [...new Set(parts.map(([side, t]) => hashed(side as string, t as string)))];
}

/**
 * A word of five letters or more ends a stretch too: it is a word or a value of letters, which the
 * reader of runs reads (credential-reader.ts), and read with the Han before it ("饺子nolafazagoju")
 * it made most random words look like a password.
 */
const LETTERS = /[A-Za-z]{5,}/gu;

/** The stretches of `text` between punctuation, spaces and words of letters. */
function stretches(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of text.matchAll(STRETCH)) {
    let from = m.index;
    for (const w of m[0].matchAll(LETTERS)) {
      out.push([from, m.index + w.index]);
      from = m.index + w.index + w[0].length;
    }
    out.push([from, m.index + m[0].length]);
  }
  return out.filter(([s, e]) => e > s);
}

/** The stretches of `text` and the rests after a word that hands a value over, two Han characters or more. */
function spans(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (const [s, e] of stretches(text)) {
    const stretch = text.slice(s, e);
    if (hanCount(stretch) >= 2 && stretch.length <= 24) out.push([s, e]);
    for (const h of stretch.matchAll(HANDS_OVER)) {
      const rest = s + h.index + h[0].length;
      if (rest < e && hanCount(text.slice(rest, e)) >= 2 && e - rest <= 24) out.push([rest, e]);
    }
  }
  return out.filter(([s, e], i) => out.findIndex(([a, b]) => a === s && b === e) === i);
}

/** The stretches of `text` the reader reads, each with its features. */
export function hanValueCandidates(text: string): HanCandidate[] {
  if (text.length > MAX_TEXT || hanCount(text) < 2) return [];
  return spans(text).map(([start, end]) => ({ start, end, features: stretchFeatures(text, start, end) }));
}

let weights: Map<number, number> | null = null;

/** The reader's probability that a stretch is a secret value. */
export function hanReaderScore(candidate: HanCandidate): number {
  weights ??= unpackWeights(CREDENTIAL_HAN_READER_MODEL);
  return logisticScore(CREDENTIAL_HAN_READER_MODEL, weights, candidate.features);
}

/**
 * The stretches of `text` the reader takes for secret values, leaving those that overlap a span
 * already found (`taken`), and the arguments of commands that name what the bot gave out.
 */
export function readHanCredentialValues(
  text: string,
  taken: readonly { start: number; end: number }[],
): { start: number; end: number }[] {
  if (namesWhatTheBotGaveOut(text)) return [];
  const found = [...hanValueCandidates(text), ...sentenceCandidates(text)]
    .filter((c) => !taken.some((t) => t.start < c.end && c.start < t.end))
    .filter((c) => hanReaderScore(c) >= HAN_READER_THRESHOLD)
    .map(({ start, end }) => ({ start, end }));
  return found.filter((f, i) => found.findIndex((g) => g.start === f.start && g.end === f.end) === i);
}

/** What ends a sentence: the rest of a message after it is another thing said. */
const SENTENCE_END = /[。！？!?\n]+/gu;

/**
 * A sentence's lead-in of a few characters and a comma ("对了，", "话说，"): what follows is read as
 * said alone too (docs/decisions/1020-a-lead-in-read-apart.md).
 */
const LEAD_IN = /^[^，,。！？!?\n]{1,4}[，,]/u;

/**
 * The parts of a message read alone, as `[start, end)`: each sentence, and a sentence's words
 * after its lead-in as well. Empty parts are left out.
 */
function messageParts(text: string): (readonly [number, number])[] {
  const parts: (readonly [number, number])[] = [];
  let from = 0;
  for (const m of [...text.matchAll(SENTENCE_END), { index: text.length, 0: "" }]) {
    const lead = LEAD_IN.exec(text.slice(from, m.index));
    const cut = lead ? from + lead[0].length : from;
    if (from < m.index) parts.push([from, m.index]);
    if (cut > from && cut < m.index) parts.push([cut, m.index]);
    from = m.index + m[0].length;
  }
  return parts;
}

/**
 * The stretches of each sentence of a message of several, read as if the sentence were said alone
 * (at their place in the message). The rest of the message tells the reader whether it speaks of a
 * password; an ordinary sentence before the value ("今天大家约了周六聚餐。小王说压缩包打开要输 酸辣土豆丝")
 * drowned that, and the reader learned from messages of one sentence
 * (docs/decisions/1000-a-value-read-in-its-own-sentence.md). A lead-in ("对了，") is cut off too.
 */
function sentenceCandidates(text: string): HanCandidate[] {
  const parts = messageParts(text);
  if (parts.length < 2) return [];
  // A sentence that is the whole message (one with a lead-in) was read whole already.
  return parts
    .filter(([start, end]) => start > 0 || end < text.length)
    .flatMap(([start, end]) =>
      hanValueCandidates(text.slice(start, end)).map((c) => ({
        ...c,
        start: c.start + start,
        end: c.end + start,
      })),
    );
}
