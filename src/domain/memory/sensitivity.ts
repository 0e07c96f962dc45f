/**
 * Sensitivity tagging (docs/memory.md#sensitivity). Four sources, in rank order:
 * `explicit` (the person said so, or memory_write's parameter) outranks `origin` (learned in a
 * person's private chat, origin.ts) which outranks `dream` (the conservative automatic tagger)
 * which outranks `default` (public, nothing noticed).
 * Credentials (tokens, cookies, keys, passwords) are never stored at all.
 */
import { statesACredential } from "../privacy/credential-statements";
import {
  CREDENTIAL_MASK,
  containsCredential,
  findSensitiveDataInMessage,
  isReaderFinding,
} from "../privacy/credentials";
import { containsPersonalData, PERSONAL_DATA_MASK } from "../privacy/personal-data";
import { isBarePrivacyRequest, privacyRequest, withoutPrivacyRequests } from "../privacy/privacy-request";
import type { Sensitivity, SensitivitySource } from "./memory";

const RANK: Record<Sensitivity, number> = { public: 0, private: 1, secret_like: 2 };
/** Where it was learned outranks what dreaming noticed: only the person or an admin lowers it. */
const SOURCE_RANK: Record<SensitivitySource, number> = { default: 0, dream: 1, origin: 2, explicit: 3 };

export const stricter = (a: Sensitivity, b: Sensitivity): Sensitivity => (RANK[a] >= RANK[b] ? a : b);

/**
 * The sensitivity a person asked for in this text, if any: their privacy request in their own
 * words (src/domain/privacy/privacy-request.ts, measured in docs/experiments/0120-privacy-wording.md).
 */
export function explicitSensitivity(text: string): Sensitivity | null {
  return privacyRequest(text);
}

/** The text without the privacy request itself (`…，别告诉别人` → `…`), every other word kept. */
export function stripPrivacyPhrases(text: string): string {
  return withoutPrivacyRequests(text);
}

/** A message that is only a privacy request ("这个别在别处提"), about what was said before. */
export function isBarePrivacyMarker(text: string): boolean {
  return isBarePrivacyRequest(text);
}

/**
 * Tokens, cookies, keys and passwords: never stored, whatever anyone asks. The one detector
 * decides; text that was already masked on arrival (it holds the mask) was a credential too, and
 * so is a statement of what a secret is, whatever its value reads like (credential-statements.ts).
 */
export function looksLikeCredential(text: string): boolean {
  return text.includes(CREDENTIAL_MASK) || containsCredential(text) || statesACredential(text);
}

/**
 * What an admin types as a memory item, read as a person's message is where it comes in: by the
 * rules and by the trained readers of values (docs/decisions/0650-admin-memory-text-read-as-messages.md).
 * "保险箱是 Kz55&qq" said in a chat is masked there; typed on the Memory page it is refused.
 */
export function looksLikeTypedCredential(text: string): boolean {
  return looksLikeCredential(text) || findSensitiveDataInMessage(text).some(isReaderFinding);
}

/** ID, bank card and mobile numbers (personal-data.ts), or their mask. */
export function looksLikePersonalData(text: string): boolean {
  return text.includes(PERSONAL_DATA_MASK) || containsPersonalData(text);
}

/** What memory never keeps, whoever writes it: a credential or a personal number. */
export function neverStored(text: string): boolean {
  return looksLikeCredential(text) || looksLikePersonalData(text);
}

/** Why a memory write that `looksLikeCredential` is refused, in the words every writer answers with. */
export const CREDENTIAL_REFUSAL = "looks like a password, token, key or cookie; never stored";

/** Why a memory write that holds an ID, bank card or mobile number is refused. */
export const PERSONAL_DATA_REFUSAL = "looks like an ID, bank card or phone number; never stored";

/** The refusal for a text `looksLikeCredential` flagged: a credential's, else a personal number's. */
export function refusalFor(text: string): string {
  return looksLikeCredential(text) ? CREDENTIAL_REFUSAL : PERSONAL_DATA_REFUSAL;
}

/** Secrets even when said in a group: documents, money, health, numbers that identify. */
const SECRET_SIGNALS: readonly RegExp[] = [
  /银行卡|信用卡|卡号|身份证|护照号|社保号|病历|诊断|确诊|病情|怀孕|欠债|负债|存款|贷款/u,
  /(?<!\d)1[3-9]\d{9}(?!\d)/,
  /(?<!\d)\d{17}[\dXx](?!\d)/,
  /\b(bank\s+account|credit\s+card|passport\s+number|social\s+security|diagnos\w*|pregnan\w*)\b/i,
];

/** Personal matters: private when said in a private chat. */
const PERSONAL_SIGNALS: readonly RegExp[] = [
  /家人|父母|爸爸|妈妈|老婆|老公|男朋友|女朋友|对象|前任|分手|离婚|结婚|孩子/u,
  /工资|薪水|收入|跳槽|辞职|裁员|面试|老板|领导|同事/u,
  /住在|住址|地址|电话|手机号|生日|年龄|岁了/u,
  /身体|生病|医院|吃药|失眠|焦虑|抑郁|难过|压力|心情/u,
  /讨厌他|讨厌她|吐槽|坏话|八卦/u,
  /\b(my\s+(wife|husband|girlfriend|boyfriend|parents|mom|dad|boss|salary|address|phone|health|doctor)|divorce|breakup|anxiety|depress\w*|therapy)\b/i,
];

/**
 * The automatic tagger, deliberately conservative: secret signals → secret_like anywhere;
 * personal signals in a private chat → private; everything else public.
 */
export function dreamSensitivity(text: string, origin: { privateChat: boolean }): Sensitivity {
  if (SECRET_SIGNALS.some((re) => re.test(text))) return "secret_like";
  if (origin.privateChat && PERSONAL_SIGNALS.some((re) => re.test(text))) return "private";
  return "public";
}

export type SensitivityTag = { readonly sensitivity: Sensitivity; readonly source: SensitivitySource };

/**
 * Combines the tags: an explicit request always wins (it may also lower an automatic tag —
 * the person knows best); otherwise the stricter of the automatic ones, sourced `dream` when
 * anything was noticed and `default` when nothing was.
 */
export function resolveSensitivity(input: {
  explicit: Sensitivity | null;
  automatic: readonly Sensitivity[];
}): SensitivityTag {
  if (input.explicit) return { sensitivity: input.explicit, source: "explicit" };
  const auto = input.automatic.reduce<Sensitivity>((a, b) => stricter(a, b), "public");
  return auto === "public"
    ? { sensitivity: "public", source: "default" }
    : { sensitivity: auto, source: "dream" };
}

/**
 * Whether `incoming` should replace `existing` on an item that already exists: a higher
 * source always does; the same source only when stricter; explicit is never overridden by
 * dreaming.
 */
export function outranks(incoming: SensitivityTag, existing: SensitivityTag): boolean {
  if (SOURCE_RANK[incoming.source] !== SOURCE_RANK[existing.source]) {
    return SOURCE_RANK[incoming.source] > SOURCE_RANK[existing.source];
  }
  return RANK[incoming.sensitivity] > RANK[existing.sensitivity];
}
