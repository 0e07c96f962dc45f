/**
 * Privacy requests in a person's own words (docs/memory.md#sensitivity): "不要外传哦", "這個別外傳",
 * "别告苏别人", "between you and me", "这个keep secret哈". The second layer of privacy: what is said
 * in a private chat is private by origin whatever its wording; this lets a person's request be
 * honoured in a group too, and records it as the person's explicit word.
 *
 * The text is read as request-text.ts prepares it (simplified, lower-cased, dialect words folded,
 * request words' typos fixed, quoted speech blanked so that someone else's request quoted is not
 * the speaker's). Every finding of the phrase rules maps back to the original text, so the
 * request can be cut out while the rest keeps the words as they were written; the trained reader
 * (request-reader.ts) reads the requests no rule does, as a whole message.
 */
import type { Sensitivity } from "../memory/sensitivity-level";
import { shareMarkerSpans } from "../memory/share-marker";
import { originalSpan, type Span } from "../text/detection-text";
import { AGREEMENT_TAG, NOT_THE_SPEAKERS, QUESTION, REQUEST_RULES, SHUSH } from "./privacy-request-rules";
import { readsAsRequest } from "./request-reader";
import { blankQuotes, requestText } from "./request-text";

export type PrivacyRequest = Span & { readonly sensitivity: Sensitivity; readonly rule: string };

const RANK: Record<Sensitivity, number> = { public: 0, private: 1, secret_like: 2 };

const CLAUSE_BREAK = /[，。！？；,.!?;\n]/u;
const HAN = /\p{Script=Han}/u;
/** A question word or tag standing alone between spaces and punctuation. */
const BARE_QUESTION =
  /^\s*(?:为什么|为啥|是不是|怎么|要不要|能不能|会不会|可不可以|是吗|对吗|对不对|吗|呢|真的吗)\s*$/u;

/**
 * How far a clause is read on either side of a finding: a real clause is far shorter, and the
 * bound keeps a long text without punctuation, with a finding every few characters, linear.
 */
const CLAUSE_REACH = 120;

/**
 * Chat often separates clauses with a space rather than a comma ("我刚是不是说太多了 大家看完就忘了吧"):
 * between two Chinese characters a space ends a clause too, for the question check.
 */
function spaceBreaks(text: string, i: number): boolean {
  return (
    /\s/u.test(text[i] ?? "") && HAN.test(text[i - 1] ?? "") && /[\p{Script=Han}\s]/u.test(text[i + 1] ?? "")
  );
}

/**
 * The clause around [start, end): from the last break before start to the next after end.
 * `before` reads back to punctuation only, so a report ("他说 别告诉别人") keeps its verb of saying;
 * `whole` also stops at a space between Chinese words, so a question next to a request
 * ("是不是说太多了 大家看完就忘了吧") does not make the request a question.
 */
function clauseOf(text: string, start: number, end: number): { before: string; whole: string } {
  const first = Math.max(0, start - CLAUSE_REACH);
  let from = start;
  while (from > first && !CLAUSE_BREAK.test(text[from - 1] ?? "")) from--;
  let wholeFrom = start;
  while (wholeFrom > from && !spaceBreaks(text, wholeFrom - 1)) wholeFrom--;
  // A question word alone before the space ("为什么 不能告诉别人") still asks about the clause.
  if (BARE_QUESTION.test(text.slice(from, wholeFrom))) wholeFrom = from;
  let to = end;
  const last = Math.min(text.length, end + CLAUSE_REACH);
  while (to < last && !CLAUSE_BREAK.test(text[to] ?? "") && !spaceBreaks(text, to)) to++;
  let clauseEnd = to;
  while (clauseEnd < last && !CLAUSE_BREAK.test(text[clauseEnd] ?? "")) clauseEnd++;
  // Nor does a tag alone after it ("别告诉别人 是吗") stop being one.
  if (BARE_QUESTION.test(text.slice(to, clauseEnd))) to = clauseEnd;
  // The clause's own closing mark counts: "你会保密吗？"
  if (to < text.length && /[？?]/u.test(text[to] ?? "")) to++;
  return { before: text.slice(from, start), whole: text.slice(wholeFrom, to) };
}

/** Every privacy request in `text`, as spans of the original text. */
export function findPrivacyRequests(text: string): PrivacyRequest[] {
  if (text.trim() === "") return [];
  const t = requestText(text);
  const read = blankQuotes(t.text);
  const out: PrivacyRequest[] = [];
  for (const rule of REQUEST_RULES) {
    for (const m of read.matchAll(rule.pattern)) {
      const end = m.index + m[0].length;
      if (end === m.index) continue;
      const clause = clauseOf(read, m.index, end);
      if (NOT_THE_SPEAKERS.test(clause.before)) continue;
      if (rule.zh && QUESTION.test(clause.whole.replace(AGREEMENT_TAG, ""))) continue;
      out.push({ ...originalSpan(t, { start: m.index, end }), sensitivity: rule.sensitivity, rule: rule.id });
    }
  }
  for (const m of text.matchAll(SHUSH)) {
    out.push({ start: m.index, end: m.index + m[0].length, sensitivity: "secret_like", rule: "shush" });
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * The level the person asked for in `text`, the stricter when they asked twice; null if none.
 * Where no rule reads a request, the trained reader may (request-reader.ts): it cannot say which
 * level was asked for, so it gives `private`, which keeps the words in their chat
 * (docs/decisions/0630-a-trained-reader-of-privacy-requests.md).
 */
export function privacyRequest(text: string): Sensitivity | null {
  let best: Sensitivity | null = null;
  for (const r of findPrivacyRequests(text)) {
    if (best === null || RANK[r.sensitivity] > RANK[best]) best = r.sensitivity;
  }
  if (best === null && readerAsks(text)) return "private";
  return best;
}

/**
 * How much of a message the trained reader and the permission check read: a request is short,
 * and a long message's head says what it is about, while the permission check's cost grows
 * faster than its text.
 */
const READER_REACH = 2_000;

/**
 * Whether the trained reader takes the message for a request. A permission in the person's own
 * words ("这个不用保密") is their word too: the reader, which cannot tell 不用保密 from 保密, does
 * not overrule it. The reader runs first, as it is linear and usually says no.
 */
function readerAsks(text: string): boolean {
  const head = text.slice(0, READER_REACH);
  return readsAsRequest(head) && shareMarkerSpans(head).length === 0;
}

/**
 * The person asks that nothing be kept ("机器人别记这个", "bot don't remember this", "都给我忘掉"):
 * beyond staying in the chat, what it is about is not written to memory
 * (docs/decisions/0600-privacy-requests-as-people-type-them.md).
 */
export function asksToKeepNothing(text: string): boolean {
  return findPrivacyRequests(text).some((r) => r.rule === "keep-nothing");
}

/** `text` without its privacy requests, every other word as it was written. */
export function withoutPrivacyRequests(text: string): string {
  const spans = findPrivacyRequests(text);
  let out = "";
  let at = 0;
  for (const s of spans) {
    if (s.start < at) {
      at = Math.max(at, s.end);
      continue;
    }
    out += `${text.slice(at, s.start)} `;
    at = s.end;
  }
  out += text.slice(at);
  return tidy(out);
}

/** Punctuation and particles a removed request left behind. */
function tidy(text: string): string {
  return text
    .replace(/[（(]\s*[)）]/g, "")
    .replace(/(^|[\s,，;；:：、.。!！~～])\s*[哦啊哈呀嘛啦喔嗷吧呢]+(?=[\s,，;；:：、.。!！~～]|$)/gu, "$1")
    .replace(/\s*([,，;；、:：])(?:\s*[,，;；、:：])+/gu, "$1")
    .replace(/\s*[,，;；、]\s*(?=[。.!！]?$)/u, "")
    .replace(/\s+/g, " ")
    .replace(/^[\s,，;；:：、.。!！~～—-]+|[\s,，;；:：、~～—-]+$/gu, "")
    .trim();
}

/** What a bare marker points back with: 这个, 刚才那句, 上面的, that. */
const POINTER =
  /^(?:这个|这件事|这事儿?|此事|刚才的?|刚才那句|刚刚说的|刚说的|上面的?|上面那个|那事|那个|这条|当我没说|this|that|it|pls|please|plz|ok|okay|yet|lol|好吗)\s*/iu;

/** Words that trail a marker without saying anything: "don't tell anyone yet", "别外传 pls". */
const FILLER = /\s+(?:yet|pls|please|plz|ok|okay|lol|哈+)$/iu;

/** A message that is only a privacy request ("这个别外传"): it is about what the person said before. */
export function isBarePrivacyRequest(text: string): boolean {
  if (privacyRequest(text) === null) return false;
  let rest = withoutPrivacyRequests(text)
    .replace(/[\s\p{P}\p{S}]+/gu, " ")
    .trim();
  for (let i = 0; i < 3; i++) rest = rest.replace(POINTER, "").replace(FILLER, "").trim();
  return rest.replace(/[\s\p{P}\p{S}哦啊呀吧哈嘛啦喔嗷]+/gu, "").length <= 2;
}
