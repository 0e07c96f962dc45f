/**
 * Sensitivity tagging (docs/memory.md#sensitivity). Three sources, in rank order:
 * `explicit` (the person said so, or memory_write's parameter) outranks `dream` (the
 * conservative automatic tagger) which outranks `default` (public, nothing noticed).
 * Credentials (tokens, cookies, keys, passwords) are never stored at all.
 */
import { CREDENTIAL_MASK, containsCredential } from "../privacy/credentials";
import type { Sensitivity, SensitivitySource } from "./memory";

const RANK: Record<Sensitivity, number> = { public: 0, private: 1, secret_like: 2 };
const SOURCE_RANK: Record<SensitivitySource, number> = { default: 0, dream: 1, explicit: 2 };

export const stricter = (a: Sensitivity, b: Sensitivity): Sensitivity => (RANK[a] >= RANK[b] ? a : b);

/** Phrases by which a person asks that something stay where it was said. */
const THIS = "(?:这个|这件事|这事|此事)?";
const EXPLICIT_SECRET: readonly RegExp[] = [
  new RegExp(`${THIS}(别|不要|不许|请勿|勿)(告诉|跟|和|对)(别人|其他人|任何人|外人)(说|讲|提)?`, "u"),
  new RegExp(`${THIS}(要|请|帮我)?保密`, "u"),
  new RegExp(`${THIS}(是|这是)(个)?秘密`, "u"),
  /\bdon'?t\s+tell\s+(anyone|anybody|others)\b/i,
  /\bdo\s+not\s+tell\s+(anyone|anybody|others)\b/i,
  /\bkeep\s+(this|it|that)\s+(a\s+)?secret\b/i,
  /\bkeep\s+(this|it|that)\s+between\s+us\b/i,
];
const EXPLICIT_PRIVATE: readonly RegExp[] = [
  new RegExp(`${THIS}(是|这是|算)?私下(的|说的|讲的|聊的|说)?`, "u"),
  new RegExp(`${THIS}(别|不要|不许|请勿|勿)在(别处|别的地方|其他地方|群里|外面)(提|说|讲)(起)?`, "u"),
  new RegExp(`${THIS}(是|这是)私事`, "u"),
  /\bdon'?t\s+mention\s+(this|it|that)\s+(elsewhere|anywhere\s+else)\b/i,
  /\bdo\s+not\s+mention\s+(this|it|that)\s+(elsewhere|anywhere\s+else)\b/i,
  /\bkeep\s+(this|it|that)\s+private\b/i,
];

/** The sensitivity a person asked for in this text, if any. */
export function explicitSensitivity(text: string): Sensitivity | null {
  if (EXPLICIT_SECRET.some((re) => re.test(text))) return "secret_like";
  if (EXPLICIT_PRIVATE.some((re) => re.test(text))) return "private";
  return null;
}

/** The text without the privacy request itself (`…，别告诉别人` → `…`). */
export function stripPrivacyPhrases(text: string): string {
  let out = text;
  for (const re of [...EXPLICIT_SECRET, ...EXPLICIT_PRIVATE]) {
    out = out.replace(new RegExp(re.source, re.flags.includes("g") ? re.flags : `${re.flags}g`), " ");
  }
  return out
    .replace(/[（(]\s*[)）]/g, "")
    .replace(/\s*[,，;；、]\s*(?=[。.!！]?$)/u, "")
    .replace(/\s+/g, " ")
    .replace(/^[\s,，;；:：、.。!！]+|[\s,，;；:：、]+$/gu, "")
    .trim();
}

/** A message that is only a privacy request ("这个别在别处提"), about what was said before. */
export function isBarePrivacyMarker(text: string): boolean {
  if (!explicitSensitivity(text)) return false;
  const rest = stripPrivacyPhrases(text).replace(
    /^(这个|这件事|这事|此事|刚才的|上面的|this|that|it)\s*/iu,
    "",
  );
  return rest.replace(/[\s\p{P}\p{S}哦啊呀吧哈嘛啦]+/gu, "").length <= 2;
}

/**
 * Tokens, cookies, keys and passwords: never stored, whatever anyone asks. The one detector
 * decides; text that was already masked on arrival (it holds the mask) was a credential too.
 */
export function looksLikeCredential(text: string): boolean {
  return text.includes(CREDENTIAL_MASK) || containsCredential(text);
}

/** Why a memory write that `looksLikeCredential` is refused, in the words every writer answers with. */
export const CREDENTIAL_REFUSAL = "looks like a password, token, key or cookie; never stored";

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
