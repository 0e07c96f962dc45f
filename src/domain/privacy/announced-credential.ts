/**
 * A password announced in one message and sent in the next: "我家wifi密码是", then
 * "Xy12ab34". Neither message alone holds a keyword with its value, so the chat object keeps,
 * per sender, when their last message announced one (`CredentialCues`), and the sender's next
 * message within CUE_WINDOW_MS that is nothing but a value is masked whole — its text, voice
 * transcripts and every string of its wire payload. Any other next message ends the cue.
 */
import type { InboundEvent } from "../inbound/inbound-event";
import { announcesCredential, bareValue } from "./credential-phrases";
import { CREDENTIAL_MASK } from "./credentials";

/** How long an announcement waits for its value. */
export const CUE_WINDOW_MS = 10 * 60_000;

/** Account → when that sender's last message announced a credential (ms). */
export type CredentialCues = Readonly<Record<string, number>>;

/** The event with an announced value masked, and the cues after it. */
export function applyCredentialCues(
  event: InboundEvent,
  cues: CredentialCues,
  now: number,
): { event: InboundEvent; cues: CredentialCues } {
  const account = event.sender?.account;
  const message = event.message;
  const live = Object.fromEntries(Object.entries(cues).filter(([, at]) => now - at <= CUE_WINDOW_MS));
  if (event.kind !== "message" || !message || !account) return { event, cues: live };
  const { [account]: announced, ...others } = live;
  const value = announced === undefined ? null : bareValue(message.text);
  const masked = value === null ? event : maskValue(event, value);
  const next = announcesCredential(masked.message?.text ?? "") ? { ...others, [account]: now } : others;
  return { event: masked, cues: next };
}

function maskValue(event: InboundEvent, value: string): InboundEvent {
  const hide = (text: string) => text.split(value).join(CREDENTIAL_MASK);
  const message = event.message;
  return {
    ...event,
    message: message
      ? {
          ...message,
          text: hide(message.text),
          attachments: message.attachments.map((a) => ({
            ...a,
            ...(typeof a.transcript === "string" ? { transcript: hide(a.transcript) } : {}),
          })),
        }
      : null,
    raw: hideIn(event.raw, hide),
  };
}

function hideIn(value: unknown, hide: (text: string) => string): unknown {
  if (typeof value === "string") return hide(value);
  if (Array.isArray(value)) return value.map((v) => hideIn(v, hide));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hideIn(v, hide)]));
  return value;
}
