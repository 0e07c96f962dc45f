/**
 * Rule-based extraction (offline mode, docs/memory.md#dreaming): statements a person makes about
 * themselves, explicit requests to remember, and decisions and chat rules, found by pattern —
 * "记住…", "remember …", "我喜欢/不喜欢…", "我是…", "我的…是…", "决定…", "群规…". The
 * speaker's "我" / "I" becomes their name, so the item reads the same wherever it is recalled.
 */
import { attributeSlot, slotOf, slotSubjectKey } from "./fact-slot";
import type { MemoryKind } from "./scope";
import { stripPrivacyPhrases } from "./sensitivity";
import type { Speaker } from "./speaker-name";

export type Extracted = {
  readonly kind: MemoryKind;
  readonly text: string;
  readonly importance: number;
  /** Same subject = same statement about the same thing; a newer one supersedes the older. */
  readonly subjectKey: string | null;
};

const EXPLICIT_ZH =
  /^(?:请|麻烦|那)?(?:你)?(?:帮我|给我)?(?:要)?(?:记住|记一下|记下)(?:了|吧)?[\s,，:：]*(.+)$/su;
const EXPLICIT_EN = /^(?:please\s+)?(?:remember|note)(?:\s+that)?[\s,:：]+(.+)$/isu;

/** An explicit request to remember (`记住…`, `remember that …`): the thing to remember. */
export function explicitRequest(text: string): string | null {
  const trimmed = text.trim();
  if (/[?？]\s*$/u.test(trimmed)) return null;
  const match = EXPLICIT_ZH.exec(trimmed) ?? EXPLICIT_EN.exec(trimmed);
  const rest = match?.[1]?.trim();
  if (!rest || /^(吗|没|了吗|住了吗)/u.test(rest)) return null;
  // "记住这个" points at something said before; the model answers that, nothing is stored.
  if (/^(这个|这件事|这些|那个|那件事|它|this|that|it)[\s。.!！~]*$/iu.test(rest)) return null;
  return rest;
}

const QUESTION = /[?？]\s*$|(吗|呢|么)[\s。.!！]*$|什么|谁|哪|几|怎么|为何|为什么|多少/u;
const EN_QUESTION = /\?\s*$|^(what|who|where|when|why|how|do|does|did|is|are)\b/i;

type Rule = {
  readonly kind: MemoryKind;
  readonly re: RegExp;
  readonly build: (m: RegExpExecArray, who: Speaker) => { text: string; subjectKey: string | null } | null;
  readonly importance: number;
};

const norm = (s: string) =>
  s
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, "");

const RULES: readonly Rule[] = [
  {
    kind: "preference",
    importance: 0.5,
    re: /^我(?:其实|一直|真的|还是)?(?:很|非常|最|特别|超|挺|比较)?(不太喜欢|不喜欢|喜欢|讨厌|不爱|爱|不吃|不喝|受不了|偏爱)(.{1,40})$/su,
    build: (m, who) => {
      const verb = m[1] ?? "";
      const object = (m[2] ?? "").trim();
      if (!object) return null;
      return { text: `${who.name}${verb}${object}`, subjectKey: `pref:${norm(who.id)}:${norm(object)}` };
    },
  },
  {
    kind: "fact",
    importance: 0.5,
    re: /^我的(.{1,12}?)(?:是|叫)(.{1,60})$/su,
    build: (m, who) => {
      const attribute = (m[1] ?? "").trim();
      const value = (m[2] ?? "").trim();
      if (!attribute || !value) return null;
      return {
        text: `${who.name}的${attribute}是${value}`,
        subjectKey: slotSubjectKey(norm(who.id), attributeSlot(attribute) ?? norm(attribute)),
      };
    },
  },
  {
    kind: "fact",
    importance: 0.5,
    re: /^我(?:其实|现在|目前)?是(?!说|不是|在|来|想|觉得|不|否)(.{1,40})$/su,
    build: (m, who) => {
      const what = (m[1] ?? "").trim();
      return what ? { text: `${who.name}是${what}`, subjectKey: null } : null;
    },
  },
  {
    kind: "preference",
    importance: 0.5,
    re: /^i\s+(?:really\s+)?(like|love|hate|dislike|don't like|do not like|prefer)\s+(.{1,60})$/isu,
    build: (m, who) => {
      const verb = (m[1] ?? "").toLowerCase();
      const object = (m[2] ?? "").trim();
      const third: Record<string, string> = {
        like: "likes",
        love: "loves",
        hate: "hates",
        dislike: "dislikes",
        prefer: "prefers",
        "don't like": "doesn't like",
        "do not like": "doesn't like",
      };
      return object
        ? {
            text: `${who.name} ${third[verb] ?? verb} ${object}`,
            subjectKey: `pref:${norm(who.id)}:${norm(object)}`,
          }
        : null;
    },
  },
  {
    kind: "fact",
    importance: 0.5,
    re: /^my\s+(.{1,30}?)\s+is\s+(.{1,60})$/isu,
    build: (m, who) => {
      const attribute = (m[1] ?? "").trim();
      const value = (m[2] ?? "").trim();
      return attribute && value
        ? {
            text: `${who.name}'s ${attribute} is ${value}`,
            subjectKey: slotSubjectKey(norm(who.id), attributeSlot(attribute) ?? norm(attribute)),
          }
        : null;
    },
  },
  {
    kind: "fact",
    importance: 0.5,
    re: /^i(?:'m|\s+am)\s+(?!going\b|not\b|just\b|so\b|very\b|sorry\b)(.{1,40})$/isu,
    build: (m, who) => {
      const what = (m[1] ?? "").trim();
      return what ? { text: `${who.name} is ${what}`, subjectKey: null } : null;
    },
  },
  {
    kind: "decision",
    importance: 0.6,
    re: /^(?:我们|大家)?(?:已经)?(?:决定|定下来|商定)(?:了)?[\s,，:：]*(.{2,80})$/su,
    build: (m) => {
      const what = (m[1] ?? "").trim();
      return what ? { text: `决定：${what}`, subjectKey: null } : null;
    },
  },
  {
    kind: "decision",
    importance: 0.6,
    re: /^we(?:'ve|\s+have)?\s+decided\s+(?:to\s+|that\s+)?(.{2,80})$/isu,
    build: (m) => {
      const what = (m[1] ?? "").trim();
      return what ? { text: `Decided: ${what}`, subjectKey: null } : null;
    },
  },
  {
    kind: "rule",
    importance: 0.7,
    re: /^(?:本群|群里|群规|规定)(?:规定|规则|的规矩)?[\s,，:：]+(.{2,80})$/su,
    build: (m) => {
      const what = (m[1] ?? "").trim();
      return what ? { text: `群规：${what}`, subjectKey: null } : null;
    },
  },
  {
    kind: "task",
    importance: 0.5,
    re: /^(?:提醒我|我要记得|我得|todo[:：\s])\s*(.{2,80})$/isu,
    build: (m, who) => {
      const what = (m[1] ?? "").trim();
      return what ? { text: `${who.name}要${what}`, subjectKey: null } : null;
    },
  },
];

/** Splits a message into statements at sentence ends and clause breaks. */
function statements(text: string): string[] {
  return text
    .split(/[。！!？?\n；;]|[,，](?=\s*(?:我|my\b|i\b))/iu)
    .map((s) => s.replace(/^(?:@\S+\s*)+/u, "").trim())
    .filter((s) => s.length > 0);
}

/** Statements of one message worth remembering, in the speaker's name. */
export function extractStatements(text: string, who: Speaker): Extracted[] {
  const out: Extracted[] = [];
  for (const raw of statements(stripPrivacyPhrases(text))) {
    const s = raw.replace(/[\s。.!！~～]+$/u, "");
    if (s.length < 2) continue;
    const slots = slotStatements(s, who);
    if (slots.length > 0) {
      out.push(...slots);
      continue;
    }
    const isEnglish = /^[\x20-\x7e]+$/.test(s);
    if (isEnglish ? EN_QUESTION.test(s) : QUESTION.test(s)) continue;
    for (const rule of RULES) {
      const m = rule.re.exec(s);
      if (!m) continue;
      const built = rule.build(m, who);
      if (!built) continue;
      out.push({ kind: rule.kind, importance: rule.importance, ...built });
      break;
    }
  }
  return out;
}

/**
 * The slots a statement states (fact-slot.ts), clause by clause: a clause that asks something
 * states nothing, but its neighbours may ("最近我在学编程，你觉得有什么好处").
 */
function slotStatements(statement: string, who: Speaker): Extracted[] {
  const out: Extracted[] = [];
  for (const clause of statement.split(/[,，、]/u)) {
    const c = clause.trim();
    const isEnglish = /^[\x20-\x7e]+$/.test(c);
    if (c.length < 2 || (isEnglish ? EN_QUESTION.test(c) : QUESTION.test(c))) continue;
    const found = slotOf(c, who.name);
    if (!found) continue;
    out.push({
      kind: "fact",
      text: found.text,
      importance: 0.5,
      subjectKey: slotSubjectKey(norm(who.id), found.slot),
    });
  }
  return out;
}

/**
 * What an explicit request to remember becomes: the statements it contains, or — when it is
 * not one of the recognised forms — the request's text itself as a fact in the speaker's words.
 */
export function classifyExplicit(thing: string, who: Speaker): Extracted[] {
  const found = extractStatements(thing, who);
  if (found.length > 0) return found.map((e) => ({ ...e, importance: Math.max(e.importance, 0.7) }));
  const text = stripPrivacyPhrases(thing)
    .replace(/^我的/u, `${who.name}的`)
    .replace(/^我/u, who.name)
    .replace(/^my\s+/i, `${who.name}'s `)
    .replace(/^i\s+/i, `${who.name} `)
    .trim();
  return text.length === 0 ? [] : [{ kind: "fact", text, importance: 0.7, subjectKey: null }];
}
