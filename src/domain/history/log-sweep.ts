/**
 * A message log read again by today's detectors
 * (docs/decisions/0990-logs-kept-before-a-detector-read-them.md). Every row was masked when it
 * was logged, but only by the detectors of that day: a row logged before a detector learned its
 * wording ("压缩包打开要输 酸辣土豆丝 别外传", before the reader of values in Chinese words) still
 * holds the value, and so does the bot's reply that repeated it ("好的，记住了：…酸辣土豆丝"), which
 * no detector reads by itself. A sweep reads the log a page at a time: each row is masked as a
 * message is on arrival, and each value read in a row is hidden in the rows of its chat that
 * follow it closely too. Idempotent: a masked row reads as clean.
 */

import { maskJson, payloadForms, readerValuesInPayload } from "../inbound/mask-inbound-event";
import { valueHider, wireForms } from "../privacy/announced-credential";
import {
  findSensitiveDataInMessage,
  isReaderFinding,
  maskRanges,
  maskSensitiveDataInMessage,
} from "../privacy/credentials";
import { chatIndexText } from "../text/chat-search-tokens";
import { type MessageRecord, senderText } from "./message-record";

/**
 * Rows before a page that are read for their values and not rewritten: a reply repeats a value
 * within a few rows of it, and a page may begin just after the value.
 */
export const READ_BEFORE = 50;

/** The values today's detectors read in a stored text: credentials and personal numbers, as they stand. */
export function valuesReadIn(text: string): string[] {
  return [...new Set(findSensitiveDataInMessage(text).map((s) => text.slice(s.start, s.end)))];
}

/** What hides each of `values` in stored text: each of its forms masked (valueHider). */
export function valuesHider(values: Iterable<string>): (text: string) => string {
  const hiders = [...new Set(values)]
    .filter((v) => v.trim().length > 0)
    .map((v) => ({ forms: formsOf(v), hide: valueHider(v) }));
  if (hiders.length === 0) return (text) => text;
  // Most texts hold none of the values: a substring test spares them the patterns.
  return (text) => hiders.reduce((t, h) => (h.forms.some((f) => t.includes(f)) ? h.hide(t) : t), text);
}

/** The forms valueHider masks: as typed, CQ-escaped, and each as a JSON string escapes it. */
function formsOf(value: string): string[] {
  const plain = wireForms(value);
  return [...plain, ...plain.map((f) => JSON.stringify(f).slice(1, -1))];
}

/** A stored text as a message would be masked today, with `hide`'s values hidden too. */
export function sweptText(text: string, hide: (text: string) => string): string {
  return hide(maskSensitiveDataInMessage(text));
}

/**
 * The rows of `page` that today's detectors would store otherwise, rewritten: text, raw payload
 * and the index text built from them. A row is masked as a message arriving today is; a value
 * read in a row is hidden too in the READ_BEFORE rows of its chat that follow it, where a reply
 * repeats it. `before` holds the rows just ahead of the page, read for their values only. (The
 * sender's name was masked by the same rules on arrival as it would be now; the log's sender
 * counts are keyed by it.)
 */
export function sweptPage(before: readonly MessageRecord[], page: readonly MessageRecord[]): MessageRecord[] {
  return sweptRows(before, page).flatMap((r) => (r === null ? [] : [r]));
}

/** One call of a sweep over a log: the rows after `afterSeq`, `maxRows` at most. */
export type SweepAsk = {
  /** Rewrite what holds a value; false only counts it. */
  readonly mask: boolean;
  /** The row the last call ended at; 0 starts the log. */
  readonly afterSeq: number;
  readonly maxRows: number;
};

/** What one call did: rows read, rows holding a value (rewritten when masking), where the next starts (null: the end). */
export type SweepPage = { readonly read: number; readonly holding: number; readonly nextSeq: number | null };

/** What one call of a sweep does with the rows it read (planSweep). */
export type SweepPlan = {
  /** Rows to rewrite, by their index in the rows read: none when only counting. */
  readonly rewrite: readonly { readonly index: number; readonly record: MessageRecord }[];
  /** Rows counted as holding a value. */
  readonly holding: number;
  /** Rows this call answers for. */
  readonly read: number;
  /** Index of the row the next call starts after; null when the log is read to its end. */
  readonly endsAt: number | null;
};

/**
 * One call of a sweep over `rows`, read for `maxRows` rows and READ_BEFORE more. The rows past
 * `maxRows` are swept too when masking: once a value is masked, the next call cannot read it
 * again in the rows before its page, so the rows that may repeat it are masked with it. A row is
 * counted by the call that rewrites it, or, only counting, by the call whose `maxRows` it is in:
 * the counts add up to the same either way.
 */
export function planSweep(
  before: readonly MessageRecord[],
  rows: readonly MessageRecord[],
  maxRows: number,
  mask: boolean,
): SweepPlan {
  const swept = sweptRows(before, rows);
  const changed = swept.flatMap((record, index) => (record === null ? [] : [{ index, record }]));
  const head = Math.min(rows.length, maxRows);
  return {
    rewrite: mask ? changed : [],
    holding: mask ? changed.length : changed.filter((c) => c.index < head).length,
    read: head,
    endsAt: rows.length > maxRows ? head - 1 : null,
  };
}

/** The rows of `page` swept, in order: null where nothing changes. */
function sweptRows(
  before: readonly MessageRecord[],
  page: readonly MessageRecord[],
): (MessageRecord | null)[] {
  const rows = [...before, ...page];
  /** Per chat, each value read and the last row it was read in. */
  const readAt = new Map<string, Map<string, number>>();
  const hiders = new Map<string, (text: string) => string>();
  const hiderOf = (v: string) =>
    hiders.get(v) ?? hiders.set(v, valuesHider([v])).get(v) ?? ((t: string) => t);
  const out: (MessageRecord | null)[] = [];
  for (const [i, r] of rows.entries()) {
    const chat = readAt.get(r.chatKey) ?? new Map<string, number>();
    readAt.set(r.chatKey, chat);
    const earlier = [...chat].filter(([, at]) => i - at <= READ_BEFORE).map(([v]) => v);
    const spans = findSensitiveDataInMessage(r.text);
    const quoted = readerValuesInPayload(parsedOrNull(r.rawJson), [r.text]);
    for (const v of [...spans.map((s) => r.text.slice(s.start, s.end)), ...quoted]) chat.set(v, i);
    if (i < before.length) continue;
    const read = [...spans.filter(isReaderFinding).map((s) => r.text.slice(s.start, s.end)), ...quoted];
    const hide = (t: string) => earlier.reduce((x, v) => hiderOf(v)(x), t);
    const swept = sweptRecord(r, maskRanges(r.text, spans), [...earlier, ...read], hide);
    out.push(swept === r ? null : swept);
  }
  return out;
}

/**
 * A record with its text masked (`masked`, the rules' and the readers' findings) and the earlier
 * rows' values hidden in it, and its payload masked as an arriving event's is (maskJson: every
 * string but ids, read by the rules, with the readers' values and the earlier rows' masked too).
 */
function sweptRecord(
  r: MessageRecord,
  masked: string,
  values: readonly string[],
  hide: (text: string) => string,
): MessageRecord {
  const text = hide(masked);
  const forms = [...new Set(values.flatMap(payloadForms))];
  const rawJson = r.rawJson === null ? null : sweptJson(r.rawJson, forms, hide);
  if (text === r.text && rawJson === r.rawJson) return r;
  return { ...r, text, rawJson, tokens: chatIndexText(r.chatKey, senderText(r.nick, text)) };
}

function parsedOrNull(json: string | null): unknown {
  if (json === null) return null;
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

/**
 * The payload masked, or as it was stored when nothing in it is: written again, a payload of
 * other spacing or escapes would read as changed. One that is no JSON (cut when too long) has the
 * values hidden in it as text.
 */
function sweptJson(json: string, forms: readonly string[], hide: (text: string) => string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return hide(json);
  }
  const masked = JSON.stringify(maskJson(parsed, "", forms));
  return masked === JSON.stringify(parsed) ? json : masked;
}
