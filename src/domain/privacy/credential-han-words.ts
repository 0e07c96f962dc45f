/**
 * The words that tell a password said in Chinese words from talk about one
 * (credential-han-phrases.ts; docs/decisions/0730-passwords-in-chinese-words.md): what such talk
 * has and a value lacks.
 */

import {
  NOT_THE_PASSWORD,
  PASSWORD_EN,
  PASSWORD_SHORT,
  PASSWORD_ZH,
  type PhraseMatch,
} from "./credential-phrases";

/** A keyword that is part of a name: 达芬奇密码 (a novel), 摩斯密码 (Morse code). */
const NAMED = "(?<!达芬奇|達芬奇|摩斯|莫尔斯|凯撒|維吉尼亞|维吉尼亚)";
/** 密码锁 is a lock, not its password. */
export const KEYWORD_ZH = String.raw`${NAMED}(?:${PASSWORD_ZH}|暗号|暗號|暗语|暗語|密语|密語|口令|(?<![保机秘私隐加解严绝泄告])密吗(?=\s*(?:就|是|为|[:：]))|口领|口領|解压码|解壓碼|解锁码|密钥|密鑰|解锁(?=\s*(?:是|为|為|[:：]))|(?:进群|入群|加群|群组?|群組|验证|驗證)(?:问题|問題)?的?答案)${NOT_THE_PASSWORD}(?!锁|鎖)`;
const KEYWORD_EN = String.raw`(?<![A-Za-z])(?:${PASSWORD_EN}|${PASSWORD_SHORT})(?![A-Za-z])`;
export const KEYWORD = `(?:${KEYWORD_ZH}|${KEYWORD_EN})`;
/** Whether a text names a keyword at all: most messages do not, and skip the forms that need one. */
export const NAMES_KEYWORD = new RegExp(KEYWORD, "iu");
/** The value: Chinese words, maybe with letters, digits and symbols ("李白123", "Ab大熊猫@2023"), no space. */
export const VALUE = String.raw`(?<value>[\p{Script=Han}A-Za-z0-9](?:[\p{Script=Han}A-Za-z0-9@#$%&*_-]{0,22}[\p{Script=Han}A-Za-z0-9])?)`;
/** An opening quote or bracket; not "[", which opens a sticker's name ("[表情]"). */
export const OPEN = String.raw`(?<open>[“‘「『【"'《(（]?)`;
export const SHUT = String.raw`[”’」』】"'）)》]?`;
/**
 * What may close a value: a space, clause punctuation, a closing bracket, an emoji or the
 * end; not a dot that opens a file's extension ("资料.zip").
 */
export const CLOSE = String.raw`(?=$|[\s，。！？；、,!?;~～…—”’」』】\])）》"']|\.(?![A-Za-z0-9])|\p{Extended_Pictographic})`;
export const rx = (source: string) => new RegExp(source, "giud");

/** Words that say what the password is made of, where it is, or how it feels. */
export const DESCRIBES =
  /数字|數字|位|字母|大小写|大小寫|区分|一样|一樣|相同|生日|名字|名称|小名|昵称|外号|网名|纪念日|日期|拼音|缩写|首字母|手机|手機|号码|號碼|手机号|学号|工号|门牌|房间号|车牌|身份证|尾号|默认|默認|初始|统一|原来|原來|之前|以前|上次|老样子|那个|那個|这个|這個|上面|楼上|樓上|刚才|剛才|刚刚|剛剛|上一条|上一條|这串|這串|那串|同一个|随便|空的|没有|沒有|没设|没填|不上|不了|不进|不開|不开|不对|不能|不行|未设|为空|留空|不用|不需要|取消|必须|必填|需要|要求|至少|以上|以下|长度|复杂|簡單|简单|难记|好记|改了|改过|换了|换过|变了|没变|没改|之后|然后|直接|回车|登录|登陆|发你|发我|发给|私聊|私信|记得|记住|记一下|谢谢|謝謝|多谢|感谢|麻烦|拜托|收到|好的|急|猜|自己|中间|中間|里面|前面|后面|开头|結尾|结尾|最后|好像|可能|应该|大概|估计|有个|空格|电话|刷卡|刷脸|指纹|人脸|公告|管理员|群主|联系|聯繫|问|問|找|看|貼|贴|写在|放在|本子|便利贴|纸条|短信|邮件|微信|告诉|告訴|知道|成语|诗|汉字|中文|英文|密码|口令|暗号|账号|帐号|验证码|提取码|加密|解密|明文|安全|强度|错|錯|忘|对的|正确|过期|作废|无效/;
/** "密码是一个成语", "一种编码": what kind of thing it is. */
const A_KIND = /^一[种種个個部本首款类類]/;
/** A question: whatever follows, the clause asks for the value instead of giving it. */
export const ASKS =
  /吗|嗎|呢|什么|什麼|啥|咩|么子|麼子|怎|咋|哪|谁|誰|几(?!个字)|幾(?!個字)|多少|多久|多长|多長|是不是|如何|[?？]|好多(?=[嘛哦啊呀哇喃咯]*$)/;
/** Right after a keyword, these open a predicate about the password, not a value. */
export const PREDICATE_START =
  /^(?:即|便|又|再|也|都|还|還|就|才|被|把|让|讓|给|給|俾|畀|跟|和|在|已|要|会|會|能|可|得|别|別|不|没|沒|很|太|真|挺|输|輸|错|錯|忘|改|换|換|设|設|发|發|写|寫|贴|放|看|问|找|私|等|取|打|多|传|傳|交|拿|借|分享|告|说|說|用|加|修|重|记|記|存|留|填|搞|弄|帮|幫|千万|每|一|是|为|的|我|你|他|她|们|們|这|這|那|了|过|過|呀|啊|哦|吧)/;
/**
 * After a keyword and a space, these still open a predicate: "rcon.password 没填所以连不上",
 * "我的密码 你别乱动"; 不 only after a person ("不见不散" is a countersign).
 */
export const SPACED_PREDICATE_START =
  /^(?:[我你他她](?:们|們)?不|(?:[我你他她](?:们|們)?)?(?:没|沒|被|把|又|也|都|还|還|已|就|才|要|会|會|能|得|很|太|真|挺|别|別))/;
/** Between keyword and connector, a clause that narrates: "密码改了三次还是被顶号". */
export const NARRATES = /了|过|過|还|還|也|都|又|忘|错|錯/;
/** A keyword said to be absent or lost: "压缩包没密码 直接解", "共享文档不用密码". */
export const ABSENT = /(?:没|沒|无|無|不用|不要|不需要|取消|去掉|忘了|忘记|忘記)\s*$/;
/** A keyword that is what something is used as: "别用中文当密码 有的系统不支持". */
export const USED_AS = /(?:当|當|做|作为|作為|当作|當作|用作)\s*$/;
/** Between a first value and its keyword, a verb: "星号是让它提示输入密码" says what a key does. */
export const ACTS = /让|讓|输|輸|提示|要|用|需|请|請|给|給|发|發|把|被|不|没|沒/;
/** A keyword that is what a verb acts on: "改密码 记得用大写", "输入支付密码即可完成付款". */
export const ACTED_ON =
  /(?:改|修改|重置|找回|输入|輸入|输|輸|设置|設置|设|設|换|換|发个|發個|要|求|查|搞|弄|约定|約定|定个|定個)[^\s，。,.]{0,4}$/;

/** Two Chinese characters or more that describe nothing and ask nothing. */
export function isHanValue(value: string, options: { asks?: boolean } = {}): boolean {
  const core = value.replace(/[了啊哈呀吧嘛哦喔啦]+$/u, "");
  if ((core.match(/\p{Script=Han}/gu) ?? []).length < 2) return false;
  if (core.endsWith("的") || DESCRIBES.test(core) || A_KIND.test(core)) return false;
  return options.asks === false || !ASKS.test(core);
}

/** Each match of `rule` whose value is a value and that `holds`; spans cover the value only. */
export function hanMatches(
  text: string,
  rule: RegExp,
  holds: (m: RegExpMatchArray) => boolean,
): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  for (const m of text.matchAll(rule)) {
    const at = m.indices?.groups?.value;
    const value = m.groups?.value ?? "";
    // The typo 密吗 is a keyword, not a question.
    if (!at || ASKS.test(m[0].replace(/密吗/g, "")) || !isHanValue(value) || !holds(m)) continue;
    out.push({ start: at[0], end: at[1], id: "password-phrase" });
  }
  return out;
}
