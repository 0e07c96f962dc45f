/**
 * Slots of a person's facts (docs/memory.md#validity-in-time): where they live, where they work,
 * where they study, what they are learning or reading now. Two statements of one person's slot
 * contradict each other — "我住在北京", later "我搬到上海了" — so the newer closes the older
 * instead of both staying current. Deterministic and offline: a small table of patterns over
 * one clause in the speaker's own words; a clause no pattern reads has no slot, and an item
 * without a slot is never closed by this rule.
 *
 * "Learning" and "reading" are slots of what a person is doing *now* ("我最近在学画画"): a newer
 * one closes the older, which stays recallable as the past ("我之前在学什么").
 */

export type FactSlot = "residence" | "work" | "school" | "learning" | "reading";

/** A clause that states a slot: the slot, its value, and the item's text in the speaker's name. */
export type SlotStatement = { readonly slot: FactSlot; readonly value: string; readonly text: string };

type SlotRule = {
  readonly slot: FactSlot;
  readonly re: RegExp;
  /** The item's text: one wording per slot, so a question about the slot finds every value. */
  readonly text: (name: string, value: string, english: boolean) => string;
};

// A value stops at punctuation; it is short, and not a word that makes the verb something else
// ("我住得很远", "我在家工作" is still work; "我在学校上学" is school).
const VALUE = "([^，,。.；;！!？?、\\s][^，,。；;！!？?、]{0,23}?)";
/** The same, up to the end of the clause: for the slots read from a clause's beginning. */
const REST = "([^，,。.；;！!？?、\\s][^，,。；;！!？?、]{0,23})";
const LEAD = "^(?:(?:其实|另外|而且|最近|现在|目前|今年|如今)[，,\\s]*)*";
const NOW = "(?:现在|目前|最近|已经|刚|刚刚|今年|如今|还|也|就)*";
const ZH_END = "(?:了|啦|啊|呀|哦|住了|去了|来了)?$";

const zh = (slot: FactSlot, body: string, text: SlotRule["text"], anchored = true): SlotRule => ({
  slot,
  re: new RegExp(
    `${LEAD}我${NOW}${anchored ? body : body.replace(VALUE, REST)}${anchored ? ZH_END : ""}`,
    "u",
  ),
  text,
});

const RULES: readonly SlotRule[] = [
  zh(
    "residence",
    `(?:住在|定居在|定居于|搬到了?|搬去了?|搬家到了?|搬回了?|住到了?)${VALUE}`,
    (n, v) => `${n}住在${v}`,
  ),
  zh("residence", `家(?:住)?在${VALUE}`, (n, v) => `${n}住在${v}`),
  zh("work", `(?:在|去|进了?)${VALUE}(?:上班|工作|任职|打工)`, (n, v) => `${n}在${v}工作`),
  zh("work", `(?:跳槽|入职|换工作)(?:到|去|进)?了?${VALUE}`, (n, v) => `${n}在${v}工作`),
  zh(
    "school",
    `(?:在|去)${VALUE}(?:读书|上学|读大学|上大学|读研|读博|念书|读高中|读初中)`,
    (n, v) => `${n}在${v}上学`,
  ),
  zh("school", `考上了?${VALUE}`, (n, v) => `${n}在${v}上学`),
  zh(
    "learning",
    `(?:在|正在|开始)(?:学习|学)(?![校生院期会到上中])${VALUE}`,
    (n, v) => `${n}在学${v}`,
    false,
  ),
  zh(
    "reading",
    `(?:在|正在|开始)(?:看|读|追)(?:一本|一部)?(?:叫做?)?(《[^》]{1,30}》)`,
    (n, v) => `${n}在看${v}`,
    false,
  ),
  {
    slot: "residence",
    re: /^i\s+(?:now\s+|currently\s+)?(?:live|am living|'m living)\s+in\s+([^,.;!?]{1,40})$/iu,
    text: (n, v) => `${n} lives in ${v}`,
  },
  {
    slot: "residence",
    re: /^i(?:'ve|\s+have)?\s+(?:just\s+)?moved\s+to\s+([^,.;!?]{1,40})$/iu,
    text: (n, v) => `${n} lives in ${v}`,
  },
  {
    slot: "work",
    re: /^i\s+(?:now\s+|currently\s+)?(?:work|am working|'m working)\s+(?:at|for)\s+([^,.;!?]{1,40})$/iu,
    text: (n, v) => `${n} works at ${v}`,
  },
];

/**
 * Values that make a pattern read something else ("我住得很远"), and indefinite ones that name no
 * value ("我在一家公司工作", "某个地方"): they state nothing that could replace a known value.
 */
const NOT_A_VALUE =
  /^(?:得|的|不|着|过|一下|了|这|那|哪|什么|怎么|多|几|一家|一个|一所|一间|某|a\s|an\s|some\s)/iu;

/** `我的<attribute>是…` attributes that name a slot, so both wordings close each other. */
const ATTRIBUTE_SLOTS: ReadonlyMap<string, FactSlot> = new Map([
  ["住址", "residence"],
  ["地址", "residence"],
  ["家", "residence"],
  ["住处", "residence"],
  ["居住地", "residence"],
  ["所在城市", "residence"],
  ["工作", "work"],
  ["工作单位", "work"],
  ["单位", "work"],
  ["公司", "work"],
  ["学校", "school"],
  ["大学", "school"],
  ["address", "residence"],
  ["city", "residence"],
  ["employer", "work"],
  ["company", "work"],
  ["school", "school"],
]);

/** The slot a `我的<attribute>是…` attribute names, or null. */
export function attributeSlot(attribute: string): FactSlot | null {
  return ATTRIBUTE_SLOTS.get(attribute.normalize("NFKC").trim().toLowerCase()) ?? null;
}

/** The subject key of a person's slot: the same key `我的<attribute>是…` gets for that slot. */
export const slotSubjectKey = (who: string, slot: FactSlot | string): string => `attr:${who}:${slot}`;

/** The slot one clause in the speaker's words states, with the item's text; null when none. */
export function slotOf(clause: string, name: string): SlotStatement | null {
  const s = clause
    .normalize("NFKC")
    .trim()
    .replace(/[\s。.!！~～]+$/u, "");
  for (const rule of RULES) {
    const m = rule.re.exec(s);
    const value = m?.[1]?.trim();
    if (!value || NOT_A_VALUE.test(value)) continue;
    return { slot: rule.slot, value, text: rule.text(name, value, /^[\x20-\x7e]+$/.test(s)) };
  }
  return null;
}

/**
 * The slot of an item's text written in the speaker's name ("张三搬到了上海", the model's
 * wording): read as if the speaker had said it.
 */
export function slotOfNamed(text: string, name: string): SlotStatement | null {
  const t = text.normalize("NFKC").trim();
  const n = name.normalize("NFKC").trim();
  if (!n || !t.startsWith(n)) return null;
  const rest = t.slice(n.length).trim();
  const english = /^[\x20-\x7e]+$/.test(rest);
  const asSaid = english
    ? `I ${rest.replace(/^(lives|works|moved)\b/i, (v) => v.replace(/s$/, ""))}`
    : `我${rest}`;
  return slotOf(asSaid, n);
}
