/**
 * The phrase rules of privacy requests (docs/memory.md#sensitivity), read on the detection text:
 * simplified (OpenCC folds traditional), lower-case, request words' typos fixed
 * (request-typos.ts). Each rule says which level the person asked for: `secret_like` for "tell
 * nobody" (别告诉别人, 不要外传, 保密, 你知道就好, between you and me), `private` for "not here /
 * not elsewhere" (别在群里提, 这是私事, keep it private). Measured on the labelled corpus
 * tests/fixtures/privacy/requests.jsonl and on requests written blind as QQ groups type them
 * (`npm run eval -- privacy-wording`); the families those added are in
 * privacy-request-group-rules.ts, the agreement tags below
 * (docs/decisions/0600-privacy-requests-as-people-type-them.md).
 */
import { GROUP_REQUEST_RULES } from "./privacy-request-group-rules";
import { REACH_REQUEST_RULES } from "./privacy-request-reach-rules";
import {
  ANYONE,
  CLAUSE_END,
  DONT,
  en,
  GAP,
  LEAD,
  NEG,
  PEOPLE,
  type RequestRule,
  TAIL,
  THIS,
  zh,
} from "./privacy-request-words";

export const REQUEST_RULES: readonly RequestRule[] = [
  // 别告诉别人, 不许告诉任何人, 不要转述给别人, 别把我的事说给群里听, 唔好话俾人知
  zh(
    "tell-nobody",
    `${LEAD}${NEG}${GAP(4)}(?:把${GAP(8)})?(?:告诉|告知|透露给|转告|转述给|转给|传给|讲给|说给|泄露给|话俾|讲俾|tell\\s*)${PEOPLE}`,
  ),
  // 别跟别人说, 不要跟其他人提起, 唔好同人讲
  zh(
    "say-to-nobody",
    `${LEAD}${NEG}${GAP(4)}(?:跟|和|对|同|向)(?:${GAP(4)}的?)?${PEOPLE}${GAP(6)}(?:说|讲|提|聊|透露|讲述|宣扬|tell)(?!话)(?:起|出去)?`,
  ),
  // 千万别跟小美说, 别让老王知道: someone named, never 我 or 自己 ("别告诉我结局" asks for no spoiler)
  zh(
    "say-to-nobody",
    `${LEAD}${NEG}(?:跟|和|对|同|告诉)(?!我|自己|你)[\\p{Script=Han}a-z]{1,5}?(?:说|讲|提)(?=我|他|她|这|系|${TAIL}(?:[，。！？；,.!?;~～\\s]|$))`,
  ),
  zh("nobody-knows", `${LEAD}${NEG}(?:让|叫)(?!我(?!家)|自己|你)[\\p{Script=Han}a-z]{1,10}?知道`),
  // 出去别讲, 出了群别提, 别bb出去, 别截图出去, 不要截图不要转发
  zh("spread-nowhere", `出(?:了|去)(?:这个)?(?:群|门)?${GAP(2)}${NEG}(?:说|讲|提|传|乱说)`),
  zh("spread-nowhere", `${LEAD}${NEG}(?:bb|逼逼|哔哔|叭叭|瞎说|乱传)出去`),
  zh(
    "spread-nowhere",
    `${LEAD}${NEG}\\s*(?:截图|截屏|录屏|转发|转|screenshot|ss|share|spread|forward)(?:出去|给别人|到别的群)?${CLAUSE_END}`,
  ),
  // 跟谁都别说, 对任何人都不要提
  zh("say-to-nobody", `(?:跟|和|对|同)(?:谁|任何人|别人)都${NEG}(?:说|讲|提)`),
  // 别让别人知道, 不能让我妈知道, 不想让同事发现
  zh(
    "nobody-knows",
    `${LEAD}${NEG}${GAP(4)}(?:让|叫|给)${PEOPLE}${GAP(6)}(?:知道|晓得|发现|看到|看见|听到|听见|知)`,
  ),
  // 不要外传, 别说出去, 别往外捅, 先别公开, 别声张, 一个字都别透露, 这条别传
  zh(
    "spread-nowhere",
    `${LEAD}${NEG}${GAP(6)}(?:外传|传出去|传开|外泄|泄露|泄漏|透露|声张|宣扬|外扬|张扬|宣传|嚷嚷|说出去|讲出去|说出来|讲出来|抖出去|捅出去|说漏嘴|外流|流出去|流传出去|公开|往外说|往外讲|往外传|往外捅|到处说|到处讲|八卦出去|乱说出去|漏出去|带出去|外带|出圈|传(?:到群里)?${CLAUSE_END})`,
  ),
  zh("spread-nowhere", `(?:话|事|消息)${GAP(3)}${NEG}传到群里(?:去)?`),
  // 别大嘴巴, 你别当大喇叭, 别说是我说的
  zh("spread-nowhere", `${LEAD}${NEG}(?:当|做)?(?:大喇叭|大嘴巴)|${LEAD}${NEG}说是我说的`),
  // 你也别说 (at the end of the message)
  zh("say-nothing", `(?:你|您)(?:也|可|千万)?${NEG}(?:说|讲|提)(?=${TAIL}(?:[。！!~～]|$))`),
  // 保密, 帮我保密, 这个报密哈, 保密到下个月 — not 保密协议, not 保密吗
  zh(
    "keep-secret",
    `${THIS}(?:(?:要|请|帮我|替我|给我|帮忙|记得|得|务必)\\s*)?保(?:个|一下)?密(?=[哈啊呀哦嗷喔吧啦了的嘛呢到！!。，,~～\\s齁捏]|一下|好(?:吗|嘛|不好|不)|$)`,
  ),
  zh("keep-secret", `(?:保守|守住|守好)(?:这个|住|好)?(?:我的)?秘密|守口如瓶|家丑不可外扬|守(?:个|一下)?密`),
  // 这是秘密, 这个属于机密哈, 这是我们之间的小秘密 — not 不是秘密, not 秘密花园
  zh(
    "is-secret",
    `${THIS}(?<!不|并不)(?:是|属于|算)(?:个|一个)?(?:我们|咱们|咱俩|我俩|我们俩|你我)?(?:之间的)?(?:小)?(?:秘密|机密)(?!基地|花园|关卡|武器|通道|配方|行动)`,
  ),
  zh("is-secret", `(?:我们|咱们|咱俩|我俩|我们俩)之间的(?:事|小秘密|秘密)|秘密来的`),
  // 你知道就好, 这个只跟你说, 只有你知道, 就我俩知道, 你知我知, 听听就好, 到你这为止
  zh(
    "only-you",
    `${THIS}(?:你|您)(?:自己)?(?:知道|晓得|懂|明白)就(?:好|行|得了|可以|够了)|(?:只|就|仅)(?:跟|和|对|告诉)你(?:一个人)?(?:说|讲)?|(?:只有|仅限)你(?:一个人)?知道|(?:只有|仅限)你们(?:几个)?知道${CLAUSE_END}`,
  ),
  zh(
    "only-you",
    `(?:就|只有)?(?:我俩|我们俩|咱俩|我们两个人?|你我)知道|你知我知(?![，,]?天下)|天知地知|(?:听|看)(?:完|听|过|到)?就(?:算了|好|行|忘了)|到你这(?:里|儿)?(?:就)?为止|烂在?肚子里|出了这个(?:对话框|聊天框|聊天|群|门)\\p{Script=Han}{0,2}就`,
  ),
  // 你们知道就好, 就咱群里几个知道
  zh(
    "only-you",
    `(?:你们|咱们|我们几个|咱群里几个|群里几个)(?:自己)?知道就(?:好|行|得了|可以|够了)|就(?:咱|我们|咱们)(?:群里)?几个人?${GAP(4)}知道`,
  ),
  // 嘴巴严一点, 口风紧点, 管住嘴, 替我瞒着
  zh(
    "only-you",
    `(?:嘴巴?|口风)(?:上)?(?:都|可|得|要)?(?:把|给我)?(?:严|紧)(?:实|一点|点)|(?:管住|闭紧)(?:你的)?嘴|(?:替|帮)我瞒|嘴上(?:得)?有个?把门的`,
  ),
  // 嘘，我离婚了 (a shush that opens the message); 偷偷告诉你, 悄悄跟你说
  zh("only-you", String.raw`^\s*(?:${THIS})?嘘+(?=[，,！!。…—~～\s]|$)`),
  zh("only-you", `(?:偷偷|悄悄)地?(?:告诉|跟|和|对)你(?:说|讲)?`),
  // 先低调, 低调点别说, 你先别吭声, 群里就别提了 (at the end of the message)
  // Low-key as a request, not a description ("他很低调"): asked of the listener, or by degree.
  zh(
    "spread-nowhere",
    `(?:(?:先|请|你|咱们?|我们)低调(?:点|一点|些|一些)?|(?<!很|太|挺|比较|非常|特别)低调(?:点|一点|些|一些))(?=${TAIL}(?:[，。！？；,.!?;~～\\s]|$))`,
  ),
  zh(
    "say-nothing",
    `(?:先|就|也|你|低调(?:点|一点)?[，,]?)\\s*${NEG}(?:说|讲|提|吭声|声张|吱声)了?(?=${TAIL}\\s*(?:[。！!~～]|$))`,
  ),
  // 私下跟你说, 这是私下的, 这是私事
  zh(
    "private",
    `私下(?:里)?(?:跟|和|对)你(?:说|讲)|私下说说|${THIS}(?:是|这是|算)?私下(?:说的|讲的|聊的|的)(?!\\p{Script=Han})`,
    "private",
  ),
  zh("private", `(?:这是|是|算)(?:我的)?私事`, "private"),
  // 别在群里提, 不要在别的地方说, 这个不要记到群里去
  zh(
    "not-here",
    `${LEAD}${NEG}(?:在)?(?:外面|外头|外边)(?:说|讲|提|乱说|聊)|${LEAD}${NEG}(?:在|到|进)(?:群里|群组里?|群聊里?|别处|别的地方|其他地方|外面|别的群|其他群|群)(?:去|来)?(?:(?:提|说|讲|聊)(?:起)?|(?=这个|这事|这件事)|${CLAUSE_END})`,
    "private",
  ),
  zh("not-here", `${LEAD}${NEG}${GAP(8)}给${PEOPLE}(?:看|听)`, "secret_like"),
  // 在群里不想提这事, 群里就别提了: the place first
  zh(
    "not-here",
    `(?:在|到)?(?:群里|群聊里?|别的群|其他群|外面|群外|别处|外边|外头|出面)(?:就|也|先|可|千万)?(?:不想|${NEG})(?:提|说|讲|聊)(?:起|了)?`,
    "private",
  ),
  // English and mixed.
  en(
    "tell-nobody",
    `${DONT}\\s+(?:you\\s+)?(?:tell|tel|say\\s+(?:anything|a\\s+word)\\s+to|breathe\\s+a\\s+word\\s+to)\\s*(?:(?:this|it|that|anything)\\s+to\\s+)?${ANYONE}\\b`,
  ),
  en(
    "tell-nobody",
    String.raw`\btell\s+(?:no\s*one|nobody|no1)\b|${DONT}\s+let\s+(?:anyone|anybody|others|people|ppl|[a-z]+)\s+know\b`,
  ),
  en(
    "spread-nowhere",
    String.raw`${DONT}\s+(?:share|repeat|spread|leak)(?:\s+(?:this|it|that))?\b|${DONT}\s+pass\s+(?:this|it|that)\s+on\b`,
  ),
  en(
    "keep-secret",
    String.raw`\bkeep\s+(?:(?:this|it|that|these)\s+(?:a\s+)?)?(?:secret|to\s+(?:yourself|urself|yourselves)|between\s+(?:us|you\s+and\s+me|u\s+and\s+me)|quiet|under\s+wraps|confidential|on\s+the\s+(?:dl|down\s+low)|low-?key|hush)\b`,
  ),
  en(
    "keep-private",
    String.raw`\bkeep\s+(?:this|it|that)\s+(?:private|in\s+here|in\s+(?:this|the)\s+(?:group|chat))\b|^private[,:]?\s+(?:please|pls)\b|private\s*一下`,
    "private",
  ),
  en(
    "only-you",
    String.raw`\bbetween\s+(?:you|u)\s+(?:and|n|&)\s+me\b|\b(?:just\s+)?between\s+us(?:\s+two)?\b(?!\s+and)|\bstays?\s+between\s+us\b|doesn'?t\s+leave\s+this\s+(?:chat|room|conversation)|\boff\s+the\s+record\b|\bon\s+the\s+(?:dl|down\s+low)\b|\bmum'?s\s+the\s+word\b|\bhush[- ]hush\b|\bnot\s+for\s+sharing\b|\bzip\s+it\b|\b(?:just|only)\s+for\s+(?:you|your\s+ears)\b|\bi'?m\s+trusting\s+you\s+with\s+this\b|\bpromise\s+(?:you|u)\s+won'?t\s+tell\b|\bunder\s+wraps\b`,
  ),
  en(
    "is-secret",
    String.raw`\b(?:this|it|that)(?:'s|\s+is)\s+(?:strictly\s+)?(?:confidential|a\s+secret|between\s+us)(?=\s*[,.!;:—-]|\s*$)|(?:这个|这事|这件事)\s*是?\s*(?:confidential|secret|off\s+the\s+record)(?!\s*[a-z])`,
  ),
  en(
    "not-here",
    `${DONT}\\s+mention\\s+(?:(?:this|it|that)\\s+(?:elsewhere|anywhere\\s+else|in\\s+(?:the\\s+)?(?:group|group\\s+chat|chat)|to\\s+(?:anyone|anybody|others|people))|(?:[\\w'’]+\\s+){1,4}?(?:to|with)\\s+(?:anyone|anybody|others|people|the\\s+group))\\b`,
    "private",
  ),
  ...GROUP_REQUEST_RULES,
  ...REACH_REQUEST_RULES,
];

/** A question about privacy is no request: 你会保密吗？ 要不要保密, 守口如瓶这个成语怎么用. */
export const QUESTION =
  /(?<!好|行|可以|成|ok)吗|[？?]|有没有|要不要|需不需要|会不会|能不能|是不是|怎么|什么意思|啥意思|为什么|为啥/u;

/**
 * A tag that asks the listener to agree, not a question about privacy: "别外传啊ok?", "保密好吗？",
 * "不要说出去，听到没". Cut off the clause before QUESTION reads it.
 */
export const AGREEMENT_TAG =
  /(?:ok|okay|好吗|好不好|好嘛|行吗|行不行|行不|可以吗|可以不|成吗|懂吗|懂不懂|懂了吗|懂没|听到没有?|听见没有?|知道没有?|知道吗|明白吗|明白不|记住没有?|记住了吗|收到没有?|收到吗|得不得|好不好|ok不|ok吗|对吧|对不对)[哦啊哈呀嘛啦喔嗷吧呢]*\s*[?？]*\s*$/iu;

/** Someone else's request reported (他让我别告诉别人, she said "…"), or one waved off (不用保密). */
export const NOT_THE_SPEAKERS =
  /(?:说|(?:让|叫|要)(?:我们|咱们|大家|你们)|让我|叫我|要我|让她|让他|嘱咐|交代|答应过?|said|says|told\s+me|asked\s+me|(?:told|asked|wants?|wanted)\s+(?:me|us)\s+to|不用|不必|无需|不需要|没必要|没什么好|没啥好|有啥好|有什么好|没有?要(?:你|你们|大家)|没让(?:你|你们|大家)|用不着|no\s+need\s+to|don'?t\s+need\s+to|not)\s*[:：,，]?\s*$/u;

/**
 * A shush or a zipped mouth, read on the text as sent, since the detection text makes emoji and
 * faces a space: 🤫, 🤐, and QQ's shush face [嘘].
 */
export const SHUSH = /[\u{1F910}\u{1F92B}]|\[嘘\]/gu;
