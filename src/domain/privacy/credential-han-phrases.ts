/**
 * A password said in Chinese words (docs/decisions/0730-passwords-in-chinese-words.md): "wifi密码是
 * 天王盖地虎", "暗号：宝塔镇河妖", "QQ密码 诸葛亮八卦阵 号借你玩一天", "「春暖花开」就是门禁口令",
 * "填 西红柿炒蛋 就能开". Such a value is no token the ASCII rules or the reader see, and any
 * phrase may be one, so what the words say decides nothing; where they stand does:
 *
 * - after a keyword and a connector (是, 为, 叫, 就是, 设的, 改成, a colon, a bracket);
 * - after a keyword and a space, as a field of its own ("密码 李白123 上去看看");
 * - right after a keyword, up to the clause's end ("保险柜密码老鼠爱大米，五个字");
 * - after a colon further on, a description, or "新的是" in the next clause;
 * - before 就是 / 这是 and a keyword that ends the clause;
 * - typed or used to open something, set on or labelled by a thing that locks
 *   (credential-han-opening.ts), quoted in a countersign, listed under a header or given as an
 *   answer line (credential-han-contexts.ts).
 *
 * What keeps talk about passwords readable is what such talk has and a value lacks: a word
 * that says what the password is made of, where it is or how it feels (生日, 后六位, 原来那个,
 * 公告, 难记), a question, a closing 的, a keyword said to be absent (没密码 直接解); right after
 * a keyword, the start of a predicate as well (又错了, 被我儿子改了, 每周一换). Only the value
 * is masked.
 */
import { findHanValuesInContext } from "./credential-han-contexts";
import { findOpeningValues } from "./credential-han-opening";
import {
  ABSENT,
  ACTED_ON,
  ACTS,
  ASKS,
  CLOSE,
  DESCRIBES,
  hanMatches,
  KEYWORD,
  KEYWORD_ZH,
  NAMES_KEYWORD,
  NARRATES,
  OPEN,
  PREDICATE_START,
  rx,
  SHUT,
  SPACED_PREDICATE_START,
  USED_AS,
  VALUE,
} from "./credential-han-words";
import type { PhraseMatch } from "./credential-phrases";

const BRIDGE = String.raw`(?<bridge>[^\n，。！？；,.!?;"'“”‘’「」『』《》【】]{0,16}?)`;
const CONNECTOR = String.raw`(?:就是|就俩字|是|係|系(?!统|統)|为|為|叫|改成了?|换成了?|換成了?|设成了?|设为|设置为|设置成|设的|設的|改咗做?|改做|設咗|设咗|用的是?|写的是|(?:写|寫|填|输入?|輸入?|打|设了|設了)(?=\s)|[:：=]|→|->|=>|⇒|>{2,3}|\bis\b|就)`;

const CONNECTED = rx(
  String.raw`${KEYWORD}${BRIDGE}(?<connector>${CONNECTOR})[:：]?\s*${OPEN}${VALUE}${CLOSE}`,
);
/**
 * A Chinese keyword then the value, a space between them, a line break ("zip密码\n…") or none:
 * the keyword labels a field. An English keyword and a space is mixed-language talk instead
 * ("password 登录", "pwd 命令显示当前目录").
 */
const LABELLED = rx(String.raw`(?<before>.{0,6})${KEYWORD_ZH}(?<gap>[ \t\u3000]*|\n)${OPEN}${VALUE}${CLOSE}`);
/** An emoji that sets a value apart as quotes do: "🔑小熊软糖🔑 这是新的wifi". */
const EMOJI = String.raw`(?:\p{Extended_Pictographic}\uFE0F?)?`;
/**
 * The value first: "「春暖花开」就是门禁口令", "水调歌头——这是新的wifi密码", and "…这是新的wifi" (a
 * wifi named after a value is named after its password); never "X不是密码".
 */
const FIRST = rx(
  String.raw`(?:^|[\n，。！？；,.!?;：:\s])${EMOJI}${OPEN}(?<value>[\p{Script=Han}A-Za-z0-9]{2,12})${SHUT}${EMOJI}\s*(?:——|—|-|，|,)?\s*(?:这个?|這個?)?(?:就|才)?(?<![不没沒也还還都])是(?<between>[^\n，。！？；,.!?;]{0,8}?)(?:${KEYWORD}|wi-?fi)${CLOSE}`,
);
/**
 * A quoted value pointed back at from later in its sentence: "“青山不改”，我看了 群文件的密码就是这个",
 * "「一蓑烟雨任平生」……新密码就是它".
 */
const POINTED_BACK = rx(
  String.raw`${OPEN}(?<value>[\p{Script=Han}A-Za-z0-9]{2,12})${SHUT}[^\n。！？!?]{0,20}?${KEYWORD}(?:就|也)?是(?:这个|這個|它)(?![\p{Script=Han}])`,
);
/**
 * A colon further on in the keyword's sentence, after words about the value: "密码就是咱家狗的
 * 名字加二号：旺财二号". Not after a rule, a hint or steps ("密码规则：…", "修改密码步骤：…").
 */
const LATER_COLON = rx(
  String.raw`${KEYWORD}(?<between>[^\n。！？；!?;:：]{1,24}?)[:：]\s*${OPEN}${VALUE}${CLOSE}`,
);
const NOT_A_VALUE_HEAD = /提示|规则|規則|要求|步骤|步驟|方法|方式|格式|注意|说明|說明|教程|流程|忘|错|錯/;
/** Steps, not a value: "…步骤：打开设置". */
const STEP = /^(?:打开|打開|点击|點擊|点|進入|进入|选择|選擇|输入|輸入|登录|登入)/;
/** What it is made of, then the value itself: "锁屏密码换成了我妈的名字 王秀英". */
const DESCRIBED_THEN = rx(
  String.raw`${KEYWORD}(?<between>[^\n，。！？,.!?]{0,16}?)(?:名字|小名|名|生日|成语|成語|诗|詩|歌名|菜名|地名|拼音)\s*${OPEN}${VALUE}${CLOSE}`,
);
/** Advice on what to make it of: "设密码别用生日 容易被撞库" names no value (decision 0790). */
const ADVISES = /别|別|不要|不能|勿|千万|千萬|避免|少用/;
/** The keyword changed or set, and the value in the next clause: "仓库密码改了，新的是 X", "设了密码，就叫 X". */
const NEW_ONE = rx(
  String.raw`${KEYWORD}[^\n。！？!?]{0,16}?[，,\s]\s*(?:(?:新的|現在的?|现在的?)(?:是|为|為|叫|[:：])|就叫|叫做)\s*${OPEN}${VALUE}${CLOSE}`,
);
/** Every password said in Chinese words in `text`; spans cover the value only. */
export function findHanPhrases(text: string): PhraseMatch[] {
  const named = NAMES_KEYWORD.test(text);
  // A wifi named after its value is the one form that needs no keyword: "「X」这是新的wifi".
  const wifi = !named && /wi-?fi/iu.test(text);
  return [
    ...(named ? keywordForms(text) : wifi ? hanMatches(text, FIRST, valueFirst) : []),
    ...findOpeningValues(text, named),
    ...findHanValuesInContext(text),
  ];
}

/** The forms that stand by a keyword. */
function keywordForms(text: string): PhraseMatch[] {
  return [
    ...hanMatches(text, CONNECTED, connected),
    ...hanMatches(text, LABELLED, labelled),
    ...hanMatches(text, FIRST, valueFirst),
    ...hanMatches(text, LATER_COLON, laterColon),
    ...hanMatches(text, POINTED_BACK, (m) => (m.groups?.open ?? "") !== ""),
    ...hanMatches(text, NEW_ONE, () => true),
    ...hanMatches(
      text,
      DESCRIBED_THEN,
      (m) => !SPACED_PREDICATE_START.test(m.groups?.value ?? "") && !ADVISES.test(m.groups?.between ?? ""),
    ),
  ];
}

function valueFirst(m: RegExpMatchArray): boolean {
  return !DESCRIBES.test(m.groups?.between ?? "") && !ACTS.test(m.groups?.between ?? "");
}

function connected(m: RegExpMatchArray): boolean {
  const bridge = m.groups?.bridge ?? "";
  const value = m.groups?.value ?? "";
  // "密码就 X" gives a value; "密码就在群里", "密码就不告诉你了" say something of it.
  if (m.groups?.connector === "就" && PREDICATE_START.test(value)) return false;
  return !NARRATES.test(bridge) && !NOT_A_VALUE_HEAD.test(bridge) && !STEP.test(value);
}

function laterColon(m: RegExpMatchArray): boolean {
  const between = m.groups?.between ?? "";
  const value = m.groups?.value ?? "";
  return !NOT_A_VALUE_HEAD.test(between) && !SPACED_PREDICATE_START.test(value) && !STEP.test(value);
}

function labelled(m: RegExpMatchArray): boolean {
  const before = m.groups?.before ?? "";
  if (ABSENT.test(before) || USED_AS.test(before) || ACTED_ON.test(before)) return false;
  const value = m.groups?.value ?? "";
  if ((m.groups?.open ?? "") !== "") return true;
  if ((m.groups?.gap ?? "") !== "") return !SPACED_PREDICATE_START.test(value);
  // Right after the keyword, with nothing between: a value of three to eight characters that
  // opens no predicate and ends none.
  const length = [...value].length;
  return (
    length >= 3 && length <= 8 && !PREDICATE_START.test(value) && !/[不没沒的得地着著过過]|了$/.test(value)
  );
}
