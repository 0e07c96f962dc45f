/**
 * Private by origin (docs/memory.md#private-by-origin): what a person tells the bot in their
 * private chat is `private` (sensitivity_source `origin`) whatever its wording, and becomes
 * shareable only on purpose — the person's clear marker in the same message ("可以告诉大家",
 * a whole clause with nothing that casts doubt on it: share-marker.ts),
 * `/share <id>`, or an admin's edit. Global memory is written only on purpose too: an admin's
 * explicit global marker ("全局：…") in a shared chat. Privacy markers always win: a message
 * that asks for privacy is never shared or global, whatever else it says.
 *
 * Markers are read as the detectors read text (detection-text.ts: traditional characters
 * folded, full-width and invisible characters folded).
 */
import { isOneToOneKey } from "../chat/chat-address";
import { detectionText } from "../text/detection-text";
import type { Sensitivity } from "./memory";
import { explicitSensitivity, resolveSensitivity, type SensitivityTag, stricter } from "./sensitivity";
import { shareMarkerSpans } from "./share-marker";

/** The rule in the words owners and admins read: on a link's confirmation and in the README. */
export const PRIVATE_BY_ORIGIN_RULE =
  "私聊里告诉我的事只在本人的私聊里提起，群里不会提起，除非本人发 /share 或说“可以告诉大家”。";

/** Whether an item written from this session (a chat key, or a chat key with a lane) is learned in private. */
export const learnedInPrivate = (session: string): boolean => isOneToOneKey(session);

/** An admin's global marker, at the start of what is to be remembered (after any @mentions). */
const GLOBAL_MARKER = /^(?:\s*@\S+)*\s*(?:--global\b|全局\s*[:：]|【全局】|\[全局\]|（全局）|\(全局\))\s*/iu;

/** The person says in this text that what they said may be shared, and asks for no privacy. */
export function shareRequested(text: string): boolean {
  return explicitSensitivity(text) === null && shareMarkerSpans(text).length > 0;
}

/** What a restatement adds around what was said: who said it, and glue words. */
const RESTATEMENT_ZH =
  /用户[0-9a-z]{0,8}|他们|她们|他|她|我|你|的|了|是|在|说|讲|告诉|提到|表示|也|都|已经|刚刚|刚/gu;
const RESTATEMENT_EN = new Set(
  "the user he she they i my me his her their him them said says told tells that is was has have had a an and".split(
    " ",
  ),
);

/**
 * Whether `statement`, written while `message` was the person's turn (by the model's
 * memory_write, or a dream candidate citing that turn), is covered by the message's permission:
 * the message gives one, and the statement says nothing the message did not — every Chinese
 * character, English word and number of it is in the message, once the speaker's name and a
 * restatement's glue are set aside. A statement that adds anything ("…，还确诊了癌症") stays
 * private: the permission is for what the person said in that message, never for what a model
 * writes during its turn.
 */
export function sharedStatement(message: string, statement: string, speaker: string | null): boolean {
  if (!shareRequested(message)) return false;
  const said = detectionText(coveredText(message)).text.toLowerCase();
  let rest = detectionText(statement).text.toLowerCase();
  if (speaker?.trim()) rest = rest.split(speaker.trim().toLowerCase()).join(" ");
  rest = rest.replace(RESTATEMENT_ZH, " ");
  const saidWords = new Set(said.match(/[a-z]+/g) ?? []);
  const saidNumbers = new Set(said.match(/\d+/g) ?? []);
  const words = (rest.match(/[a-z]+/g) ?? []).filter((w) => !RESTATEMENT_EN.has(w));
  return (
    words.every((w) => saidWords.has(w)) &&
    (rest.match(/\d+/g) ?? []).every((n) => saidNumbers.has(n)) &&
    (rest.match(/\p{Script=Han}/gu) ?? []).every((ch) => said.includes(ch))
  );
}

/** Where a sentence ends: 。！？!?, a line break, or a full stop before a space. */
const SENTENCE_END = /[。！？!?\n]+|\.(?=\s|$)/gu;

/**
 * What a message's permission covers: each marker's own sentence, and the sentence before it when
 * the marker's says nothing else ("我升职了。可以告诉大家"). A sentence before that
 * ("我确诊了糖尿病。我升职了，可以告诉大家") is another matter the permission was not given for.
 */
function coveredText(message: string): string {
  const sentences: { from: number; to: number }[] = [];
  let from = 0;
  for (const end of message.matchAll(SENTENCE_END)) {
    sentences.push({ from, to: end.index });
    from = end.index + end[0].length;
  }
  sentences.push({ from, to: message.length });
  const covered: string[] = [];
  for (const marker of shareMarkerSpans(message)) {
    const k = sentences.findIndex((s) => marker.start >= s.from && marker.start <= s.to);
    const own = sentences[k];
    if (!own) continue;
    covered.push(message.slice(own.from, own.to));
    const besides = message.slice(own.from, marker.start) + message.slice(marker.end, own.to);
    const before = sentences[k - 1];
    if (before && besides.replace(/[\s\p{P}\p{S}]/gu, "") === "")
      covered.push(message.slice(before.from, before.to));
  }
  return covered.join(" ");
}

/** The text without its share markers (`我下个月结婚，可以告诉大家` → `我下个月结婚`), every other word kept. */
export function withoutShareMarkers(text: string): string {
  const spans = shareMarkerSpans(text).sort((a, b) => b.start - a.start);
  let out = text;
  for (const s of spans) out = out.slice(0, s.start) + out.slice(s.end);
  return out.replace(/^[\s,，;；:：、]+|[\s,，;；:：、！!。.~～]+$/gu, "").trim() || text;
}

/** The text starts with an admin's explicit global marker ("全局：…", "--global …"). */
export const globalRequested = (text: string): boolean => GLOBAL_MARKER.test(detectionText(text).text);

/** The text without its leading global marker. */
export function withoutGlobalMarker(text: string): string {
  const m = GLOBAL_MARKER.exec(detectionText(text).text);
  return m ? text.slice(m[0].length).trim() || text : text;
}

/**
 * The sensitivity of an item written from `session`. In a shared chat, today's rules: the
 * person's privacy request, else the automatic tags. In a private chat it is at least
 * `private` (source `origin`) whatever the wording or the model's argument; the person's
 * request may make it stricter (`explicit`), and only their share marker — in a message that
 * asks for no privacy — makes it `public` (`explicit`).
 */
export function originSensitivity(input: {
  readonly session: string;
  /** The privacy request of the person (their words) or of memory_write's argument. */
  readonly explicit: Sensitivity | null;
  readonly automatic: readonly Sensitivity[];
  /** The person's share marker, in their own message. */
  readonly shared: boolean;
}): SensitivityTag {
  if (!learnedInPrivate(input.session)) return resolveSensitivity(input);
  if (input.explicit && input.explicit !== "public")
    return { sensitivity: stricter(input.explicit, "private"), source: "explicit" };
  if (input.shared) return { sensitivity: "public", source: "explicit" };
  const noticed = input.automatic.reduce<Sensitivity>((a, b) => stricter(a, b), "private");
  return { sensitivity: noticed, source: "origin" };
}
