/**
 * The point where an inbound event becomes storable: before the chat object writes it to
 * its inbox, buffers its log row, appends it to the recent turns or hands it to a turn,
 * every credential and personal number (ID, bank card, mobile) in it is masked — the
 * normalized text, voice transcripts, file names and attachment URLs, the sender's display
 * name and every text value of the wire payload kept as raw_json.
 * Nothing downstream (inbox, message log and its index, identity observations, recent turns,
 * dreaming journal, the model provider) sees the secret.
 */

import { unescapeEntities } from "../chat/message-text";
import { claimDigestIn } from "../identity/admin-claim";
import { wireForms } from "../privacy/announced-credential";
import {
  findSensitiveData,
  findSensitiveDataInMessage,
  isReaderFinding,
  maskRanges,
  maskSensitiveData,
  type TextRange,
} from "../privacy/credentials";
import type { InboundAttachment, InboundEvent, InboundSender } from "./inbound-event";

/**
 * Wire fields that are ids, not text: platform message and user ids are long mixed
 * tokens that the high-entropy rule would take for keys, and the log needs them intact.
 */
const ID_KEY = /(?:^|_)(?:id|ids|openid|seq|ts|time|timestamp)$|^(?:s|t|op|avatar)$/i;

/**
 * Mention markup, which the normalized text drops (the bot) or turns into `@name`: OneBot's
 * `[CQ:at,qq=…]`, QQ's `<@id>`, `<@!id>`, `<qqbot-at-user id="…" />`, `<qqbot-at-everyone />`.
 */
const MENTION_MARKUP =
  /\[CQ:at(?:,[^,[\]]*)*\]|<@!?[^>\s]+>|<qqbot-at-(?:user\s+id="[^"]*"|everyone)\s*\/?>/g;

export function maskInboundEvent(event: InboundEvent): InboundEvent {
  const message = event.message;
  // A claim code is a credential like any other and is masked below; only its digest, which
  // is what the claim store keeps too, goes on to the turn. A digest that came in is dropped.
  const { claimDigest: _ignored, ...rest } = event;
  const digest = message ? claimDigestIn(message.text) : null;
  const read = message
    ? readerValues([
        message.text,
        ...message.attachments.map((a) => a.transcript ?? ""),
        ...wordsInPayload(event.raw),
      ])
    : [];
  return {
    ...rest,
    ...(digest === null ? {} : { claimDigest: digest }),
    sender: event.sender ? maskSender(event.sender) : null,
    message: message
      ? {
          ...message,
          text: maskWithValues(message.text, read),
          attachments: message.attachments.map((a) => maskAttachment(a, read)),
        }
      : null,
    raw: maskJson(event.raw, "", read),
    ...(event.chatTitle === undefined ? {} : { chatTitle: maskSensitiveData(event.chatTitle) }),
  };
}

/**
 * The display name is text the sender chose (a OneBot card, a QQ username): it reaches the
 * log's nick and index, identity observations and the model's prompt, so it is masked here
 * once for all of them. Ids stay as they are.
 */
function maskSender(sender: InboundSender): InboundSender {
  return sender.displayName === null
    ? sender
    : { ...sender, displayName: maskSensitiveData(sender.displayName) };
}

function maskAttachment(a: InboundAttachment, read: readonly string[]): InboundAttachment {
  return {
    ...a,
    // A download link may carry a token or signature in its query string.
    url: a.url === null ? null : maskWithValues(a.url, read),
    filename: a.filename === null ? null : maskWithValues(a.filename, read),
    transcript: a.transcript === null ? null : maskWithValues(a.transcript, read),
  };
}

/**
 * The values the trained reader of credential values reads in what people wrote (the text, voice
 * transcripts, and the payload's text fields: a quoted message comes only there), as typed, as
 * OneBot's `raw_message` escapes them and as QQ's `content` escapes them. Only there does the
 * reader read, so every other copy of those words — in the text, the payload, file names and
 * links — is masked by the values themselves (docs/decisions/0640-a-trained-reader-of-credential-values.md).
 */
function readerValues(texts: readonly string[]): string[] {
  return [...new Set(readerFound(texts).flatMap(payloadForms))];
}

/** The values the trained readers read in `texts`, as typed. */
function readerFound(texts: readonly string[]): string[] {
  // QQ's `content` is most often the text itself: each distinct text is read once.
  const values = [...new Set(texts)].flatMap((t) =>
    findSensitiveDataInMessage(t)
      .filter(isReaderFinding)
      .map((s) => t.slice(s.start, s.end)),
  );
  return [...new Set(values)];
}

/**
 * The values the trained readers read in a stored payload's text fields that are not `read`
 * already, as typed: a quoted message is only there. The log sweep reads a row's payload as an
 * arriving event's is read (docs/decisions/0990-logs-kept-before-a-detector-read-them.md).
 */
export function readerValuesInPayload(raw: unknown, read: readonly string[]): string[] {
  return readerFound(wordsInPayload(raw).filter((t) => !read.includes(t)));
}

/** A value as typed, CQ-escaped (wireForms) and HTML-escaped, as QQ's `content` carries `<`, `>`, `&`. */
export function payloadForms(value: string): string[] {
  const html = value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  return [...wireForms(value), html, html.replaceAll('"', "&quot;").replaceAll("'", "&#39;")];
}

/** Fields of a wire payload that hold what people wrote: QQ's `content` (quoted ones too), OneBot's text segments. */
const WORDS_KEY = /^(?:content|text)$/;

/** The text fields of a wire payload, each read without its mention markup, unescaped. */
function wordsInPayload(value: unknown, key = ""): string[] {
  if (typeof value === "string") {
    if (!WORDS_KEY.test(key)) return [];
    const pieces = outsideMarkup(value).map((p) => value.slice(p.start, p.end));
    return [unescapeEntities(pieces.join(""))];
  }
  if (Array.isArray(value)) return value.flatMap((v) => wordsInPayload(v, key));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => wordsInPayload(v, k));
  return [];
}

/**
 * A string of the event masked by the rules and by every occurrence of the reader's values. The
 * text and the transcripts were read once, in readerValues; every place the reader read a value in
 * them is an occurrence of it, so they are not read a second time.
 */
function maskWithValues(text: string, read: readonly string[]): string {
  return maskRanges(text, [...findSensitiveData(text), ...occurrences(text, read)]);
}

/** Every place in `text` where one of the reader's values stands. */
function occurrences(text: string, values: readonly string[]): TextRange[] {
  const out: TextRange[] = [];
  for (const v of values) {
    for (let at = text.indexOf(v); at >= 0; at = text.indexOf(v, at + v.length))
      out.push({ start: at, end: at + v.length });
  }
  return out;
}

/**
 * Every string of a parsed JSON value masked, except the values of id fields, and read the
 * way the normalized text reads the message — so the payload keeps no secret the text lost.
 */
export function maskJson(value: unknown, key = "", read: readonly string[] = []): unknown {
  if (typeof value === "string") return ID_KEY.test(key) ? value : maskWireText(value, [], read);
  if (Array.isArray(value)) return maskSegments(value, key, read);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskJson(v, k, read);
    return out;
  }
  return value;
}

/**
 * A wire string masked as it stands and as it reads without its mention markup:
 * "密码是 <@bot> hunter2" is a password only once the mention is gone, as in the normalized
 * text. A secret the markup cuts in two is masked on both sides; the markup stays.
 */
function maskWireText(text: string, found: readonly TextRange[], read: readonly string[]): string {
  const pieces = outsideMarkup(text);
  const across = pieces.length > 1 ? readTogether(pieces.map((p) => text.slice(p.start, p.end))) : [];
  const unmarked = pieces.flatMap((p, i) => (across[i] ?? []).map((r) => shift(r, p.start)));
  return maskRanges(text, [...found, ...findSensitiveData(text), ...unmarked, ...occurrences(text, read)]);
}

/** The stretches of `text` between its mention markup, in order. */
function outsideMarkup(text: string): TextRange[] {
  const pieces: TextRange[] = [];
  let at = 0;
  for (const m of text.matchAll(MENTION_MARKUP)) {
    pieces.push({ start: at, end: m.index });
    at = m.index + m[0].length;
  }
  pieces.push({ start: at, end: text.length });
  return pieces;
}

/**
 * A message sent as segments (OneBot `message[]`: text, an @ of the bot, more text) is read
 * as the one text its text segments make, as the normalized text reads it: a phrase or a key
 * block cut by a mention is still found, and each segment masks its own part of it.
 */
function maskSegments(items: readonly unknown[], key: string, read: readonly string[]): unknown[] {
  const texts = items.map(segmentText);
  const found = readTogether(texts.map((t) => t ?? ""));
  return items.map((item, i) => {
    const masked = maskJson(item, key, read);
    const text = texts[i];
    if (text === null || text === undefined || !isSegment(masked)) return masked;
    return { ...masked, data: { ...masked.data, text: maskWireText(text, found[i] ?? [], read) } };
  });
}

type Segment = { readonly data: { readonly text: string } & Record<string, unknown> };

function isSegment(value: unknown): value is Segment {
  if (value === null || typeof value !== "object" || !("data" in value)) return false;
  const data = value.data;
  return data !== null && typeof data === "object" && "text" in data && typeof data.text === "string";
}

function segmentText(item: unknown): string | null {
  return isSegment(item) ? item.data.text : null;
}

/**
 * The credentials in the text that `pieces` make read one after another, as ranges into
 * each piece: a secret that runs across pieces leaves a range in every piece it touches.
 */
function readTogether(pieces: readonly string[]): TextRange[][] {
  const spans = findSensitiveData(pieces.join(""));
  let end = 0;
  return pieces.map((piece) => {
    const start = end;
    end += piece.length;
    return spans
      .filter((s) => s.start < end && s.end > start)
      .map((s) => ({
        start: Math.max(s.start, start) - start,
        end: Math.min(s.end, end) - start,
        ...(s.mask === undefined ? {} : { mask: s.mask }),
      }));
  });
}

function shift(range: TextRange, by: number): TextRange {
  return { start: range.start + by, end: range.end + by };
}
