/**
 * A countersign, an answer or a password asked for in a chat and given in Chinese words: "房间密码？"
 * then "天王盖地虎", "暗号是啥" then "你说 宝塔镇河妖", "进群答案是啥" then "答案填 我爱学习 四个字"
 * (docs/decisions/0840-a-password-given-in-words.md).
 *
 * Words are what most chat is, so this reads less than asked-credential.ts does: only a question
 * for a secret that can be words (暗号, 口令, 答案, 密码; not a code sent by text), only the next
 * two messages, never the asker's own, and only a short phrase that describes nothing, asks
 * nothing and opens with no word of chatter ("不清楚", "问群主", "快点").
 */
import { detectionText } from "../text/detection-text";
import { openWait, waitAfter } from "./answer-wait";
import { ASKS, isHanValue } from "./credential-han-words";

/** How many messages after the question may answer it in words. */
export const WORDS_REACH = 2;

/** A secret that can be words; not 验证码 or 取件码, which a service sends as digits. */
const WORDY = /暗号|暗语|密语|口令|答案|密码|\b(?:password|passphrase|countersign|code\s*word)\b/i;
/** Before the phrase: "就是", "你说", "你講", "答案填", "输"; not a bare 说 ("说到徐克，…"). */
const LEAD = /^(?:答案|暗号|暗號|口令)?(?:就是|是|係|你说|你說|你讲|你講|填|写|寫|输入?|輸入?|回答?|答)\s*/u;
/** Words that make a clause a sentence about something, which a passphrase seldom is. */
const SENTENCE = /是|也|被|很|都|还|又|就|才|要|会|能|在|了./u;
/** A phrase that opens with these is chatter about the question or a refusal, not its answer. */
const CHATTER =
  /^(?:想得美|做梦|没门|休想|凭什么|凭啥|滚|美得你|门都没有|才不|不|没|沒|别|別|我也|我不|我没|我沒|我忘|我去|我喜欢|我比较|我觉得|我是|我在|我要|我想|我会|我刚|你自己|你去|你问|他|她|它|的|了|也|都|忘|等|稍|问|問|找|看|去|快|急|在|有|谁|誰|求|帮|幫|哈|嗯|哦|噢|好|行|对|對|啊|呃|额|真|这|這|那|什么|啥|刚|剛|明天|今天|晚上|一会)/u;

/** The cue: `?words|<asker>|<messages left>` → when the question was asked (answer-wait.ts). */
const KEY = /^(\?words\|.*)\|(\d+)$/;
const HEAD = "?words|";

/** The most characters a reply that gives a phrase has: "你说天王盖地虎 他会回你宝塔镇河妖" has 17. */
const MAX_REPLY = 24;

/** The phrase a message gives, or null: Chinese words alone or after a lead, 3 to 12 of them. */
export function phraseGiven(text: string): string | null {
  const trimmed = text.trim();
  // An answer is short, and asks nothing; a longer message is a sentence of its own ("你说得对，…").
  if ([...trimmed].length > MAX_REPLY || ASKS.test(trimmed)) return null;
  const led = LEAD.exec(trimmed);
  const rest = led ? trimmed.slice(led[0].length) : trimmed;
  const parts = rest.split(/[\s，,。！!？?；;~～…]+/u).filter(Boolean);
  // Words after words with no lead are a sentence about something: "刘桂芳啊 数学老师 你连她都忘了".
  if (parts.length === 0 || (parts.length > 1 && !led)) return null;
  const phrase = (parts[0] ?? "").replace(/[了啊呀吧嘛哦喔啦呗哈]+$/u, "");
  // A phrase, not a sentence: "当然是电锯惊魂", "奥斯卡最佳女配角也被提名了".
  if (!/^\p{Script=Han}{3,12}$/u.test(phrase) || CHATTER.test(phrase) || SENTENCE.test(phrase)) return null;
  return isHanValue(phrase) ? phrase : null;
}

/** The phrase that answers a question waiting in `cues`, when `account` did not ask it. */
export function answeredInWords(
  cues: Readonly<Record<string, number>>,
  account: string,
  text: string,
): string | null {
  const wait = openWait(cues, KEY);
  return wait && wait.head !== HEAD + account ? phraseGiven(text) : null;
}

/**
 * The cues after a message: a question for a secret that can be words opens a wait of
 * WORDS_REACH messages; an answer, or the last message the wait allows, closes it.
 */
export function wordsCuesAfter(
  cues: Readonly<Record<string, number>>,
  message: { account: string; text: string; asks: boolean; answered: boolean },
  now: number,
): Record<string, number> {
  const opens = message.asks && WORDY.test(detectionText(message.text).text) ? HEAD + message.account : null;
  return waitAfter(cues, KEY, { opens, answered: message.answered }, WORDS_REACH, now);
}
