/**
 * A password announced in one message and sent in the next: "我家wifi密码是", then
 * "Xy12ab34". Neither message alone holds a keyword with its value, so the chat object keeps,
 * per sender, when their last message announced one (`CredentialCues`), and the sender's next
 * message within CUE_WINDOW_MS that is nothing but a value (one ASCII token, or words,
 * numerals or groups: credential-value-alone.ts) is masked whole — its text, voice
 * transcripts and every string of its wire payload. People look the value up first: one
 * message that only says so ("等一下我找找", "hold on") keeps the cue for one more message.
 * Any other message ends the cue. A message that held a masked value leaves a cue too: the next
 * may correct it ("刚才打错了，是 …", corrected-credential.ts). And a message that asks for a
 * password leaves one for the whole chat, which anyone's answer takes (asked-credential.ts), or,
 * for a secret that can be words, another member's short phrase (asked-in-words.ts).
 */
import type { InboundEvent } from "../inbound/inbound-event";
import { answeredValue, askedCuesAfter, asksForCredential, messagesLeftToAnswer } from "./asked-credential";
import { answeredInWords, wordsCuesAfter } from "./asked-in-words";
import { correctedValue } from "./corrected-credential";
import { announcesCredential, bareValue } from "./credential-phrases";
import { tellsOfANewSecret, toldValue } from "./credential-told-change";
import { valueAlone } from "./credential-value-alone";
import { CREDENTIAL_MASK } from "./credentials";

/** How long an announcement waits for its value. */
export const CUE_WINDOW_MS = 10 * 60_000;

/**
 * Account → when that sender's last message announced a credential (ms); `account|waited` →
 * when they answered it with a message that only asks to wait.
 */
export type CredentialCues = Readonly<Record<string, number>>;

const WAITED = "|waited";
/** `account|gave` → when that sender's last message held a masked value, which the next may correct. */
const GAVE = "|gave";
/**
 * `account|told` → when that sender's last message told of a new secret without giving it
 * ("路由器后台我重新设了", credential-told-change.ts): their next message may be the bare value.
 */
const TOLD = "|told";

/** A message that only says the value is coming: "等一下我找找", "稍等", "hold on". */
const WAIT =
  /^(?:(?:等一?下|等等|稍等|等会儿?|马上|我?找一?找|我?找一下|我?看一?看|我?查一?下|我?翻一?下|让我想想|一会儿?|hold\s+on|wait|one\s+sec(?:ond)?|sec|brb|lemme\s+check|let\s+me\s+(?:check|look))[\s,，。.!！~～…哈啊哦我]*)+$/iu;

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
  const {
    [account]: announced,
    [account + WAITED]: waited,
    [account + GAVE]: gave,
    [account + TOLD]: told,
    ...chat
  } = live;
  const own =
    announced !== undefined
      ? (bareValue(message.text) ?? valueAlone(message.text))
      : gave !== undefined
        ? correctedValue(message.text)
        : told !== undefined
          ? toldValue(message.text)
          : null;
  // Anyone's answer to a password asked for in the chat (asked-credential.ts), or in words
  // (asked-in-words.ts).
  const answer = own === null && messagesLeftToAnswer(chat) !== null ? answeredValue(message.text) : null;
  const words = own === null && answer === null ? answeredInWords(chat, account, message.text) : null;
  const value = own ?? answer ?? words;
  const masked = value === null ? event : maskValue(event, value);
  const read = {
    account,
    text: message.text,
    asks: asksForCredential(message.text),
    answered: answer !== null || words !== null,
  };
  const rest = wordsCuesAfter(askedCuesAfter(chat, read, now), read, now);
  const others = (masked.message?.text ?? "").includes(CREDENTIAL_MASK)
    ? { ...rest, [account + GAVE]: now }
    : rest;
  if (announcesCredential(masked.message?.text ?? ""))
    return { event: masked, cues: { ...others, [account]: now } };
  if (announced !== undefined && value === null && waited === undefined && WAIT.test(message.text.trim())) {
    return { event: masked, cues: { ...others, [account]: announced, [account + WAITED]: now } };
  }
  if (value === null && tellsOfANewSecret(masked.message?.text ?? ""))
    return { event: masked, cues: { ...others, [account + TOLD]: now } };
  return { event: masked, cues: others };
}

export function maskValue(event: InboundEvent, value: string): InboundEvent {
  return hideInEvent(event, valueHider(value));
}

/**
 * What hides `value` in stored text: every form of it masked, as typed, as OneBot's raw message
 * escapes it, and as a JSON string escapes either.
 */
export function valueHider(value: string): (text: string) => string {
  const plain = wireForms(value);
  const forms = [...new Set([...plain, ...plain.map((f) => JSON.stringify(f).slice(1, -1))])];
  // The longest first: a form inside another must not leave the other's rest behind. A form is
  // not hidden inside a longer word or number ("hk7731" in "hk77312"): that is something else.
  forms.sort((a, b) => b.length - a.length);
  const edge = (c: string | undefined) => (c !== undefined && /[A-Za-z0-9]/.test(c) ? "[A-Za-z0-9]" : null);
  const patterns = forms.map((form) => {
    const [before, after] = [edge(form[0]), edge(form.at(-1))];
    const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`${before ? `(?<!${before})` : ""}${escaped}${after ? `(?!${after})` : ""}`, "g");
  });
  return (text) => patterns.reduce((t, pattern) => t.replace(pattern, CREDENTIAL_MASK), text);
}

/** The event with `hide` applied to its words: its text, its transcripts and its raw payload. */
export function hideInEvent(event: InboundEvent, hide: (text: string) => string): InboundEvent {
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

/**
 * The value as typed, and as OneBot's `raw_message` carries it: CQ-escaped (`&` `[` `]`, and
 * `,` where an implementation escapes it too), so "Tp&link" is also hidden as "Tp&amp;link".
 */
export function wireForms(value: string): string[] {
  const cq = value.replaceAll("&", "&amp;").replaceAll("[", "&#91;").replaceAll("]", "&#93;");
  return [...new Set([value, cq, cq.replaceAll(",", "&#44;")])];
}

export function hideIn(value: unknown, hide: (text: string) => string): unknown {
  if (typeof value === "string") return hide(value);
  if (Array.isArray(value)) return value.map((v) => hideIn(v, hide));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hideIn(v, hide)]));
  return value;
}
