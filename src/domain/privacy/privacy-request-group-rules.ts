/**
 * The ways a group member asks that words stay in the group, read as families rather than
 * wording by wording (docs/decisions/0600-privacy-requests-as-people-type-them.md): the words
 * stay here (仅限本群, 出群即焚, 群外不认, "this stays in the group chat"), nobody keeps them
 * (机器人别记这个, "don't remember this"), they are unsaid (你们都没看到, 就当没听过),
 * outwards with any verb, a place named, a threat or a cost (谁传出去谁是狗, 传出去我就社死了),
 * only here or only you (这个群我才敢说), and a plea put as a question (你们不会往外说吧？). Measured on requests written blind
 * (`npm run eval -- privacy-wording`).
 */
import {
  CLAUSE_END,
  DONT,
  en,
  GAP,
  LEAD,
  NEG,
  PEOPLE,
  type RequestRule,
  THIS,
  THIS_GROUP,
  zh,
} from "./privacy-request-words";

export const GROUP_REQUEST_RULES: readonly RequestRule[] = [
  // 出了这群谁也别瞎咧咧: once out of this group, don't, whatever the verb
  zh("spread-nowhere", `出了?(?:这个?|本|咱们?)群${GAP(3)}${NEG}\\p{Script=Han}{1,3}`),
  // 莫往外头说, 可别往外嘚嘚, 请勿对外透露: "outwards" says where, whatever the verb
  zh("spread-nowhere", `${LEAD}${NEG}${GAP(2)}(?:往|向|对)外(?:头|面|边)?\\p{Script=Han}{1,3}`),
  // 唔好share出去, 别发出去, 不要转给别人
  zh(
    "spread-nowhere",
    `${LEAD}${NEG}${GAP(4)}(?:share|post|send|forward|leak|分享|散播|散布|扩散|发|转)\\s*(?:出去|到外面|给别人|给外人)`,
  ),
  // 仅限本群, 锁死在这个群里, 出群即焚, 阅后即焚, 不出这个群
  zh(
    "stays-here",
    `(?:仅限|只限|锁死在|锁在|烂在|止于)(?:${THIS_GROUP}|这里|这儿)|(?:出群|阅后|看完|听完)即焚|(?:不|${NEG})出${THIS_GROUP}|(?:不希望|不想)${GAP(4)}(?:在)?(?:别处|外面|外头|外边|别的地方|其他地方|别的群|其他群)(?:听到|看到|传)`,
    "private",
  ),
  // 机器人别记这个, 小本本别记, 不要记下来: the listener, the bot too, should not keep it
  zh(
    "keep-nothing",
    `${LEAD}${NEG}(?:帮我|给我)?(?:记(?![错仇混反岔得性忆者账号在])(?:下来|住|录|下|着)?|记录|保存|存下来|存档|存${CLAUSE_END})`,
  ),
  // 你们都没看到对吧, 就当没听见: what was seen is to be unseen (by those who saw it; the bot
  // may still remember it here, unlike 别记)
  zh(
    "unsaid",
    `(?:就|都)?当(?:作|做)?(?:没|没有)(?:看到|看见|听到|听见|听过|看过)|(?:就|都)?当(?:作|做)?不知道|假装(?:没|没有)(?:看到|看见|听到|听见)|(?:你们|大家)(?:都|就)?(?:没|没有)(?:看到|看见|听到|听见)(?:对吧)?${CLAUSE_END}|(?:上面|刚才|刚刚|前面|刚)${GAP(6)}当(?:作|做)?我?(?:没|没有)(?:说|讲)(?:过)?|(?:你们|大家|你|机器人|小助手)${GAP(3)}(?:听|看)(?:完|过|到)?就忘|(?:自觉|集体|选择性)失忆|请${GAP(4)}失忆`,
  ),
  // 周围讲 (Cantonese: about, around)
  zh("spread-nowhere", `${LEAD}${NEG}${GAP(2)}周围(?:讲|说)`),
  // 明天谁也别提, 谁都不许说
  zh("say-to-nobody", `谁(?:也|都)${NEG}(?:说|讲|提|传)`),
  // 谁传出去谁是狗, 谁要是把这个发到家族群里我跟谁急: a threat to whoever spreads it
  zh(
    "spread-nowhere",
    `谁(?:要是|敢)?${GAP(8)}(?:传|说|讲|发|捅|转)(?:出去|到${GAP(6)})${GAP(3)}(?:谁|我跟谁|我就)|谁(?:要是|敢)${GAP(8)}(?:传|说|讲|发|捅|转|泄露|透露)(?:出去|到|给)|(?:要是|敢)${GAP(6)}(?:记下来|存下来|截图|录屏|说出去|传出去|讲出去|捅出去)(?:[，,]\\s*)?${GAP(3)}(?:我就|我跟你|我(?:把你)?(?:踢|拉黑|绝交))|谁(?:要是|敢)?(?:传|说|讲|发|捅|转)(?:出去)?谁`,
  ),
  // 群外不认, 出了群不认账, 别处我不认, 出了这个群我可没说过
  zh(
    "stays-here",
    `(?:群外|别处|外面|出了?(?:这个?|本)?群)${GAP(4)}(?:不认(?:账)?|没说过|没讲过)`,
    "private",
  ),
  // 这个不上墙, 别让这事出圈, 别发到贴吧
  zh(
    "spread-nowhere",
    `${THIS}不上墙|${NEG}让${GAP(4)}出圈|${LEAD}${NEG}${GAP(2)}(?:发|转|传|贴)到(?!这|本群)\\p{Script=Han}{1,6}`,
  ),
  // 机器人也给我忘掉, 你们都忘了吧
  zh("keep-nothing", `(?:给我|帮我|你们|大家|都)忘(?:掉|了吧)|(?:你们|大家)都?给我忘(?:了|掉)`),
  // 这个群我才敢说, 也就在咱宿舍群说说, 外面的人我一个都不敢讲, 只跟你们几个说, 咱们就在这说说,
  // 大家心里有数就行
  zh(
    "only-you",
    `(?:咱们?|我们)(?:就|只)(?:在)?(?:这|这儿|这里|群里)(?:说说|讲讲|聊聊)|心里有数就(?:行|好|可以)|(?:这个?群|咱们?\\p{Script=Han}{0,3}群|这里)(?:里)?我?(?:才|也就|只)(?:敢|能|会)?(?:说|讲|提)|也就(?:在)?(?:咱们?|这|你们)${GAP(6)}(?:说说|讲讲|说|讲)|(?:外面的人|外人|别人)${GAP(6)}(?:不敢|不会|不能)(?:说|讲|提)|只(?:跟|和|对)你们(?:几个)?(?:说|讲)`,
  ),
  // 别在世界频道说, 也别在班里提, 千万别发朋友圈: a place named, any place
  zh(
    "not-here",
    `${LEAD}${NEG}(?:在|到|往)\\p{Script=Han}{1,6}?(?:里|上|中)?(?:说|讲|提|发|传|聊)(?!话)|${LEAD}${NEG}(?:截图|截屏|screenshot|ss)?\\s*(?:转发|发|转|传)到?(?:朋友圈|空间|微博|抖音|小红书|别的群|其他群|外面)(?!的)`,
    "private",
  ),
  // 你们不会往外说吧？ 能不能别到处讲: a plea in the form of a question
  {
    id: "spread-nowhere",
    pattern: new RegExp(
      `(?:你们|你)(?:应该|总|总归)?(?:不会|不至于)${GAP(3)}(?:往外|到处|出去|说出去|讲出去|外传|告诉别人|乱说)\\p{Script=Han}{0,3}吧|能不能(?:别|不要)${GAP(8)}(?:到处|往外|外传|说出去|讲出去|乱说|(?:发|转|传|说|讲)给${PEOPLE})`,
      "gu",
    ),
    sensitivity: "secret_like",
    zh: false,
  },
  // 传出去我就社死了, 要是让我领导知道我就完了: what spreading it would cost
  zh(
    "spread-nowhere",
    `(?:传出去|说出去|讲出去|让[\\p{Script=Han}a-z]{1,8}?知道)${GAP(4)}(?:我就|我可就|我得|就完了|我完了|社死|死定了|完蛋)`,
  ),
  // 别透风出去, 亲戚那边先别走漏风声, 别拿这个当谈资, 别搞得人尽皆知, 别捅到我领导那去, 别露馅
  zh("spread-nowhere", `${LEAD}${NEG}${GAP(6)}(?:透风|透个风|走漏|露馅|当谈资|人尽皆知|扩散|捅到|捅给)`),
  // 只在这个群说说, 这话我只在这说, 仅在本群讲讲: said only here (not "只在周末营业", "只在这个群发过红包")
  zh(
    "stays-here",
    `(?:只|仅|就)在?(?:${THIS_GROUP}|这里|这儿|这)(?:说说|讲讲|聊聊|说|讲)(?![过了完])`,
    "private",
  ),
  // 不足为外人道, 都给我捂住了, 嘴上把个门, 把嘴闭紧点: an idiom for "not for outsiders", a mouth kept shut
  zh(
    "only-you",
    `不足为外人道|(?:都|给我|帮我)捂(?:住|紧|严实|好)|嘴(?:上|巴)?(?:把(?:个|好|住)?门|闭紧|缝上|拉上拉链)|把嘴(?:巴)?(?:闭紧|闭严|管住|缝上)|管(?:住|好)(?:你们的?)?嘴`,
  ),
  // 跟你们讲个秘密, 说个secret
  zh("is-secret", `(?:说|讲|告诉你们?)(?:个|一个)(?:小)?(?:秘密|secret)`),
  en(
    "stays-here",
    String.raw`\b(?:this|it|that|what\s+i\s+(?:just\s+)?(?:say|said)(?:\s+(?:next|above|earlier|here))?|everything\s+i\s+say)\s+(?:stays|stay|remains|should\s+stay|has\s+to\s+stay)\s+(?:in\s+(?:this|the|our)\s+(?:group(?:\s+chat)?|gc|chat|room)|(?:in\s+)?here)\b|\bdoesn'?t\s+leave\s+(?:the|this|our)\s+(?:group(?:\s+chat)?|gc)\b|\bwhat\s+happens\s+in\s+(?:the|this|our)\s+(?:group(?:\s+chat)?|gc|chat)\s+stays\b`,
    "private",
  ),
  en(
    "only-you",
    // Not "my lips are sealed": that is a listener's promise.
    String.raw`\blips\s+(?:sealed|zipped)\s*(?:pls|please|plz|ok|guys)\b|\bkeep\s+(?:your|ur)\s+lips\s+(?:sealed|zipped)\b|\bkeep\s+(?:it\s+)?low(?:-?key)?(?=\s|\p{Script=Han}|[,.!]|$)`,
  ),
  // dont snitch, this convo never happened, delete after reading, sworn to secrecy, just between u guys n me
  en(
    "spread-nowhere",
    String.raw`${DONT}\s+(?:snitch|screenshot|ss|forward|leak|spill)\b|\bjust\s+(?:you|u)\s+(?:guys|all|lot)\s+know\b|\b(?:this|the)\s+(?:convo|conversation|chat)\s+never\s+happened\b|\bdelete\s+(?:it\s+|this\s+)?after\s+reading\b|\bsworn\s+to\s+secrecy\b|\bbetween\s+(?:u|you)\s+(?:guys|all|lot)\s+(?:and|n|&)\s+me\b|\bnot\s+a\s+word\s+to\s+(?:anyone|anybody|a\s+soul)\b|\bif\s+(?:this|it|that|any\s+of\s+(?:this|it))\s+(?:ever\s+)?(?:gets|got|goes|leaks?)\s+out\b(?!\s+of)|\b(?:bie|bu\s*yao)\s*(?:wai\s*chuan|shuo\s*chu\s*qu|jiang\s*chu\s*qu|gao\s*su\s*(?:bie\s*ren|ta\s*men|ren))\b`,
  ),
  en(
    "keep-nothing",
    // Not "I don't remember this": the request is made of the listener, never of the speaker.
    String.raw`(?<!\b(?:i|we|you|they|he|she|u|it|who|which|that)\s+)${DONT}\s+(?:remember|record|log|save|store|memori[sz]e|write\s+down)(?:\s+(?:this|that|it|what\s+i)\b|(?=\s*(?:[,.!;]|\p{Script=Han}|$)))|\bforget\s+(?:what\s+i\s+(?:just\s+)?said|i\s+(?:ever\s+)?said\s+(?:this|that|anything))\b`,
  ),
];
