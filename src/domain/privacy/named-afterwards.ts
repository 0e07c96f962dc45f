/**
 * A value sent alone and only afterwards named a secret by its sender: "Lx20240915", then
 * "↑家里wifi密码" (docs/decisions/0860-a-value-named-afterwards.md). The first message holds no
 * keyword and the second no value, and the first has arrived before the second says what it
 * was. So the chat object holds a message that is nothing but a value back from triage — and
 * so from the log, the short-term context and dreaming — until its sender's next message or
 * NAMING_WAIT_MS, whichever comes first. When that next message names it a password, a code, a
 * key or a countersign, the held message is masked whole before anything reads it. A message
 * addressed to the bot is not held: its turn is due at once.
 */
import type { InboundEvent } from "../inbound/inbound-event";
import { detectionText } from "../text/detection-text";
import { hideIn, maskValue } from "./announced-credential";
import { SECRET } from "./asked-credential";
import { announcesCredential, bareValue, PASSWORD_EN } from "./credential-phrases";
import { SECURITY_QUESTION } from "./credential-security-words";
import { valueAlone } from "./credential-value-alone";
import { CREDENTIAL_MASK } from "./credentials";

/** How long a value alone waits for its sender to say what it was. */
export const NAMING_WAIT_MS = 2 * 60_000;

/** A naming is a short phrase: "↑这是我家wifi的密码 别外传哈" is about as long as they come. */
const MAX_NAMING = 30;

/**
 * What a value may be named: the secrets a question asks for, a door's or a safe's code, a lock
 * box's or a phone's screen lock, a security question's answer (docs/decisions/0920-security-answers-laid-out.md).
 */
const NAMED = new RegExp(
  String.raw`${SECRET}|密[码碼][箱锁鎖]|锁屏|鎖屏|门禁|門禁|保险[柜箱]|保險[櫃箱]|暗[語语]|密[語语]|${PASSWORD_EN}|(?<![A-Za-z])(?:code|combo|key)(?![A-Za-z])|${SECURITY_QUESTION}`,
  "iu",
);

/**
 * What says the value before was something else or is still to come: a question; a denial of a
 * password or of this ("不是密码", "密码不是这个"); a network's or account's name; no password
 * at all; where it is or whom to ask; forgetting it; sending it later. A naming may say more
 * than it must — "短信码 给你 快输", "这是密码不是邮箱": a value taken for a secret by mistake
 * costs a masked token, one left costs the secret.
 */
const NOT_NAMING = new RegExp(
  [
    String.raw`[?？]|吗|嗎|呢\s*$|多少|几多|幾多|啥|什么|什麼|咩|哪|谁|誰|怎|知道`,
    String.raw`(?:不是|唔係|並非|并非|\b(?:not|isn'?t|wasn'?t)\b)[^，。,.]{0,6}?(?:${SECRET}|这|這|那|上面|that|this)`,
    String.raw`(?:${SECRET})[^，。,.]{0,4}?(?:不是|唔係)[^，。,.]{0,2}?(?:这|這|那|上面)`,
    String.raw`名字|名称|名稱|用户名|用戶名|ssid|(?<!maiden\s+)\bname\b`,
    String.raw`(?:没|沒|无|無|不用|不需要|免)(?:有|设|設)?(?:${SECRET})|免密`,
    String.raw`问(?!题)|問(?!題)|[贴貼]|[写寫]在|找(?:前台|老板|管理|群主|客服|网管|房东)|忘`,
    String.raw`[发發](?:你|您|给|給|我|群|到|在)|私你|私聊|等下|等會|等会|稍后|稍後|晚点|晚點|回头|回頭`,
    String.raw`\b(?:forgot|forget|later|soon|what|which|ask)\b`,
  ].join("|"),
  "iu",
);

/** A token with a digit, of four characters or more: a value of the naming's own. */
const OWN_VALUE = /(?<![\x21-\x7E])(?=[\x21-\x7E]*\d)[\x21-\x7E]{4,}/u;

/** A token without a digit waits only from this length: "ok", "hello" and "nice" are chat. */
const MIN_WORD_VALUE = 6;

/**
 * Chat, not a value, among tokens without a digit: a command to a bot, this one or another of the
 * group's ("/weather", "#help"), and a word said aloud ("Thanks!", "Agreed.", "what??").
 */
const NOT_A_WORD_VALUE = /^[/!.#][A-Za-z_-]+$|^[A-Za-z]+[!.?~,]+$/u;

/** A web address, which people paste alone to share it. */
const LINK = /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.)/iu;

/** Emoji around a value are no part of it: "🐱catcat0812". */
const EMOJI_EDGES = /^(?:\p{Extended_Pictographic}|\uFE0F|\s)+|(?:\p{Extended_Pictographic}|\uFE0F|\s)+$/gu;

/** The value of a message that is nothing but one, and so may be named afterwards; else null. */
export function valueToName(event: InboundEvent): string | null {
  const message = event.message;
  if (event.kind !== "message" || !message || message.addressedToBot) return null;
  return valueSentAlone(message.text);
}

/**
 * The value of a text that is nothing but one, whoever it was sent to: what a naming afterwards
 * masks. A message addressed to the bot is not held for its naming, its answer is due at once,
 * so the naming masks what was stored of it instead (src/durable-objects/named-after-logging.ts).
 */
export function valueSentAlone(said: string): string | null {
  if (said.includes(CREDENTIAL_MASK)) return null;
  const text = said.replace(EMOJI_EDGES, "");
  // Only a value with no Chinese waits, and with a digit unless it is one token of six characters
  // or more ("woaichixigua", "dawei@qq"): Chinese words ("随便聊聊", "明天3点开会") and short or
  // spaced English ("ok", "good night") are how a group chats, and a wait keeps a message from
  // the short-term context of everyone's next turn. A link is shared, not a secret
  // (docs/decisions/0870-a-word-value-named-afterwards.md).
  const token = bareValue(text);
  const value = token ?? valueAlone(text);
  if (value === null || /\p{Script=Han}/u.test(value) || LINK.test(value)) return null;
  if (/\d/.test(value)) return value;
  return token !== null && token.length >= MIN_WORD_VALUE && !NOT_A_WORD_VALUE.test(token) ? value : null;
}

/**
 * Chinese words sent alone, two to eight characters and nothing else: "红烧肉", "芝麻开门",
 * "天王盖地虎". Not held for a naming — holding them would hold a group's chatter back from
 * everyone's short-term context — but masked where they were stored when their sender names them a
 * secret (docs/decisions/0900-chinese-words-named-afterwards.md).
 */
const HAN_WORDS = /^\p{Script=Han}{2,8}$/u;

/**
 * Chat rather than a value: a word that ends on a particle, one character said over, or a
 * sentence about someone ("我喜欢爬山", "你先走").
 */
const HAN_CHAT = /[吗嗎呢吧啊呀哈嘛么麼哦噢喔嗯啦了的]$|^(\p{Script=Han})\1+$|^(?:我|你|他|她|它|咱|俺|您)/u;

/**
 * What a naming of Chinese words must say besides the secret's name: that it points back ("这是",
 * "刚那个", "↑", Cantonese "呢個"), whose or what it is ("进门的暗号", "今晚嘅暗號"), or how to keep
 * it ("别外传", "记一下"). A
 * bare "wifi密码" or "门禁" after "我在楼下" asks for one; it names nothing said before.
 */
const NAMES_WORDS =
  /[这這那↑⬆^]|呢[個个]|嗰[個个]|上面|楼上|樓上|刚|剛|的|嘅|别外传|別外傳|别告诉|別告訴|保密|记一下|記一下|记住|記住|记着|記著/u;

/**
 * The value of a message that is nothing but one, as a naming afterwards reads it where it was
 * stored: a value alone (valueSentAlone), or Chinese words alone when `naming` says more than a
 * secret's name.
 */
export function valueNamedLater(said: string, naming?: string): string | null {
  const value = valueSentAlone(said);
  if (value !== null) return value;
  const text = said.replace(EMOJI_EDGES, "").trim();
  if (!HAN_WORDS.test(text) || HAN_CHAT.test(text)) return null;
  return naming === undefined || NAMES_WORDS.test(naming) ? text : null;
}

/** Whether a message names, in a few words and nothing else, what its sender's value before was. */
export function namesValueBefore(text: string): boolean {
  const read = detectionText(text).text.trim();
  if (read.length === 0 || read.length > MAX_NAMING) return false;
  if (!NAMED.test(read) || NOT_NAMING.test(read)) return false;
  // An announcement ("wifi密码是", whose value comes next) or a message that holds a value of its
  // own ("wifi密码 Qx81!vv20") is no naming of the one before.
  return !announcesCredential(read) && !OWN_VALUE.test(read);
}

/** The held message with its value masked, when its sender's next message names it a secret. */
export function maskNamedValue(held: InboundEvent, next: string): InboundEvent | null {
  const value = held.kind === "message" && held.message ? valueNamedLater(held.message.text, next) : null;
  return value !== null && namesValueBefore(next) ? maskValue(held, value) : null;
}

/**
 * A chat's events in order, each value its sender named afterwards within NAMING_WAIT_MS masked:
 * what the chat object's holds do (src/durable-objects/held-values.ts), for a run of history read
 * at once (a backfill's page, the eval's exchanges).
 */
export function maskNamedInOrder(events: readonly InboundEvent[]): InboundEvent[] {
  const out = [...events];
  const waiting = new Map<string, number>();
  events.forEach((event, i) => {
    const account = event.sender?.account;
    if (account === undefined) return;
    const at = waiting.get(account);
    const held = at === undefined ? undefined : out[at];
    waiting.delete(account);
    const ts = event.message?.ts ?? 0;
    if (at !== undefined && held && event.message && ts - (held.message?.ts ?? 0) <= NAMING_WAIT_MS)
      out[at] = maskNamedValue(held, event.message.text) ?? held;
    // Addressed or not: a run of history is read at once, so no answer waits on it.
    if (event.kind === "message" && event.message && valueNamedLater(event.message.text) !== null)
      waiting.set(account, i);
  });
  return out;
}

/**
 * `json` with `hide` applied to each string in it; a payload cut to length is no JSON any more,
 * and then its text is hidden as it stands (announced-credential.ts's valueHider knows the
 * JSON-escaped forms).
 */
export function hideInJson(json: string, hide: (text: string) => string): string {
  try {
    return JSON.stringify(hideIn(JSON.parse(json), hide));
  } catch {
    return hide(json);
  }
}
