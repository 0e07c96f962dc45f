/**
 * The words privacy-request rules are built from (privacy-request-rules.ts and
 * privacy-request-group-rules.ts): who is not to hear it, how people say "don't", the gaps a
 * clause allows, and the two makers of a rule, read on the detection text (simplified,
 * lower-case, dialect words folded, request words' typos fixed).
 */
import type { Sensitivity } from "../memory/sensitivity-level";

export type RequestRule = {
  readonly id: string;
  readonly pattern: RegExp;
  readonly sensitivity: Sensitivity;
  /** Chinese rules: a question about privacy (你会保密吗？) is no request. */
  readonly zh: boolean;
};

/** What the request is about, said first: 这个别外传, 这事你知道就好. */
export const THIS = String.raw`(?:(?:这个|这件事|这事儿?|此事|这话|这条|那事|这消息|这个消息|刚才那句|刚说的|上面那个)\s*)?`;
/** The listener and softeners before the request: 你可千万别, 麻烦别, 拜托不要. */
export const LEAD = String.raw`${THIS}(?:(?:你|您)\s*)?(?:(?:也|可|就|千万|一定|先|请|麻烦|拜托|务必)\s*)*`;
/**
 * Saying no: 别, 不要, 不许, 请勿, Cantonese 唔好. Not 不会 (that is a promise, not a request), nor
 * the 别 that ends another word (特别, 区别, 告别).
 */
export const NEG = String.raw`(?:(?<![特区分性级类告辨鉴识离派差惜送道])别(?![人处的家])|不要|不许|不准|不能|不可以|不可|请勿|勿|莫|唔好|禁止|不想|不兴|甭|憋(?=[说讲告传往外跟和对让给])|咪(?=[讲说话跟同给告传]))`;
/** Whoever should not hear it. */
export const PEOPLE = String.raw`(?:别人|其他人|其它人|任何人|外人|旁人|第三个人|第三人|人家|大家|群里的?人?|其他群友|群友|同事|同学|老师|领导|老板|公司的人|我?家里人|别的群的?人?|其他群的?人?|其它群|外面的人|共同好友|我?(?:表|堂)?(?:妈|爸|爸妈|父母|家人|老婆|老公|女朋友|男朋友|对象|室友|同事|领导|老板|朋友|姐|哥|弟|妹|老汉儿?|老爸|老妈|老爹|老娘|爷爷|奶奶|外婆|姥姥|亲戚|班主任|辅导员|导师|主管)|谁|人)`;
/** Where a group's words should stay: 本群, 这个群, 群里. */
export const THIS_GROUP = String.raw`(?:本群|这个?群(?:里|内)?|群里|群内|咱们?群(?:里)?|我们群(?:里)?|此群)`;
/** Up to a few characters of the same clause. */
export const GAP = (n: number) => String.raw`[^，。！？；,.!?;\n]{0,${n}}?`;
/** Particles that end the request: 哈, 哦, 啊, 嗷. */
export const TAIL = String.raw`[哦啊哈呀嘛啦喔嗷吧呢]*`;
/** The end of a clause. */
export const CLAUSE_END = String.raw`(?=${TAIL}(?:[，。！？；,.!?;~～:：\s]|$))`;

export const zh = (id: string, source: string, sensitivity: Sensitivity = "secret_like"): RequestRule => ({
  id,
  pattern: new RegExp(`${source}${TAIL}`, "gu"),
  sensitivity,
  zh: true,
});
export const en = (id: string, source: string, sensitivity: Sensitivity = "secret_like"): RequestRule => ({
  id,
  pattern: new RegExp(source, "gu"),
  sensitivity,
  zh: false,
});

export const DONT = String.raw`(?:(?:please|pls|plz|just)\s+)?(?:don'?t|do\s+not|never)`;
export const ANYONE = String.raw`(?:anyone|anybody|nobody|no\s*one|no1|any1|others|other\s+people|people|ppl|the\s+other\s+groups?|the\s+group|the\s+others|everyone|(?:my|our)\s+(?:[a-z]+\s+)?[a-z]+|mom|dad|him|her|them|别人|其他人|任何人)`;
