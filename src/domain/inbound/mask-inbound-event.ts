/**
 * The point where an inbound event becomes storable: before the chat object writes it to
 * its inbox, buffers its log row, appends it to the recent turns or hands it to a turn,
 * every credential in it is masked — the normalized text, voice transcripts, file names
 * and every text value of the wire payload kept as raw_json. Nothing downstream (inbox,
 * message log, recent turns, dreaming journal, the model provider) sees the secret.
 */
import { maskCredentials } from "../privacy/credentials";
import type { InboundAttachment, InboundEvent } from "./inbound-event";

/**
 * Wire fields that are ids, not text: platform message and user ids are long mixed
 * tokens that the high-entropy rule would take for keys, and the log needs them intact.
 */
const ID_KEY = /(?:^|_)(?:id|ids|openid|seq|ts|time|timestamp)$|^(?:s|t|op|avatar)$/i;

export function maskInboundEvent(event: InboundEvent): InboundEvent {
  const message = event.message;
  return {
    ...event,
    message: message
      ? {
          ...message,
          text: maskCredentials(message.text),
          attachments: message.attachments.map(maskAttachment),
        }
      : null,
    raw: maskJson(event.raw),
    ...(event.chatTitle === undefined ? {} : { chatTitle: maskCredentials(event.chatTitle) }),
  };
}

function maskAttachment(a: InboundAttachment): InboundAttachment {
  return {
    ...a,
    filename: a.filename === null ? null : maskCredentials(a.filename),
    transcript: a.transcript === null ? null : maskCredentials(a.transcript),
  };
}

/** Every string of a parsed JSON value masked, except the values of id fields. */
export function maskJson(value: unknown, key = ""): unknown {
  if (typeof value === "string") return ID_KEY.test(key) ? value : maskCredentials(value);
  if (Array.isArray(value)) return value.map((v) => maskJson(v, key));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskJson(v, k);
    return out;
  }
  return value;
}
