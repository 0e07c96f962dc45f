/**
 * The person's share marker: what makes something said in a private chat shareable
 * (docs/decisions/0510-share-marker-is-a-whole-clause.md,
 * docs/decisions/0550-what-may-follow-a-share-marker.md). A wrong "yes" here is a leak — a
 * private matter repeated in a group — and a wrong "no" costs a `/share`. So the marker is read
 * narrowly, by construction rather than by a list of bad wordings:
 *
 * - it must be a whole clause of its own ("我下个月结婚，可以告诉大家"), with no more than a few
 *   filler words around it (这个, 都, 也, 吧, 哈): "他说可以告诉大家", "能告诉大家就好了",
 *   "以后可以公开" and "随便告诉大家不太好吧" are not;
 * - the message must hold nothing that makes the permission doubtful anywhere: a question, a
 *   condition, a later time, a wish, a contrast, someone else's opinion, a limit to one listener
 *   ("只跟你说", "别外传"), a joke or a take-back ("才怪").
 *
 * The text is read as the detectors read it (detection-text.ts: traditional characters and
 * full-width forms folded), so 可以告訴大家 is the same marker.
 */
import { detectionText, originalSpan, type Span } from "../text/detection-text";

const AUDIENCE =
  "(?:大家|别人|其他人|所有人|任何人|群友们?|大伙儿?|他们|她们|(?:群里|各个群里?|所有群里?|每个群里?|全群)(?:的人|人|所有人|的朋友们?)?)";
/** What the bot may do with it there: say it, announce it, spread it, show it off. */
const TELL =
  "(?:给我|帮我)?(?:说说|讲讲|宣传宣传|吹吹|说|讲|提|通知|宣传|传|炫耀|公布|喊|吹|发)(?:一下|一声|一波|一遍|下)?";
/** Who allows it: 可以, 尽管, 允许你, 直接, 帮我 …, or an imperative with none. */
const MAY =
  "(?:你)?(?:可以|能|尽管|随便|直接|允许你?|准你|帮我|替我|给我|就|去|快|现在就?)*(?:把(?:这事儿?|这件事|这个?消息|这个|它))?";
/** The permission itself, Chinese. */
const MARKER_ZH = [
  `(?:可以|能|尽管|随便|随时|都可以)(?:告诉|跟|和|对|同|让|给)?${AUDIENCE}(?:说|讲|提|知道|看)?`,
  `(?:告诉|跟|和|对|给)${AUDIENCE}(?:说|讲|提)(?:一下|一声)?`,
  `(?:在|到)?群里(?:可以|能)?(?:随便)?(?:说|提|讲)(?:一下|一声)?`,
  "(?:不用|不必|无需|用不着|没必要)(?:替我|帮我|给我)?保密",
  "(?:不是|算不上)(?:什么)?秘密",
  "(?:可以|能)公开(?:说|讲)?",
  "公开也?(?:没事|没关系|无所谓|可以)",
  "随便(?:说|讲|提)",
  `欢迎转告${AUDIENCE}?`,
  // "跟群里说吧", "帮我在群里宣传下", "去群里说一下", "可以在所有群里说", "允许你在群里讲", "尽管到处说"
  `${MAY}(?:在|到|去|跟|和|对|给|告诉)${AUDIENCE}里?都?${TELL}`,
  // "你帮我通知一下大家吧"
  `${MAY}(?:通知|告诉)(?:一下)?${AUDIENCE}`,
  // "直接公布吧 每个群都发"
  `${MAY}公布`,
  "(?:每个群|各个群|所有群)都?(?:发|说|讲)(?:一下|一遍)?",
  `${MAY}到处${TELL}`,
  // "可以发到群里", "拿去群里炫耀一下", "群里随便传"
  `${MAY}(?:发|转|拿|传)(?:到|去)${AUDIENCE}里?(?:${TELL}|让大家\\p{Script=Han}{0,4})?`,
  `${AUDIENCE}里?(?:随便|尽管)${TELL}`,
  `${AUDIENCE}都?(?:可以|能)(?:知道|看|说|提)`,
  `(?:告诉|跟)${AUDIENCE}(?:说)?也?(?:没关系|没事|无所谓|可以)`,
].join("|");
const BEFORE_ZH =
  "(?:这个|这件事|这事儿?|这些|这个?消息|都|也|你|你们|就|反正|嗯|好|所以|那|帮我|麻烦你?|请)*";
const AFTER_ZH = "(?:吧|哈|啊|呀|啦|了|哦|喔|噢|的|哟|嘿|都行|也行|没关系|无所谓|就行|就好|没事)*";
/** The permission itself, English, as a whole clause. */
const AUDIENCE_EN = String.raw`(?:(?:all\s+)?the\s+group(?:\s+chats?|s)?|everyone|anyone|everybody|anybody|others|people)(?:\s+in\s+the\s+groups?(?:\s+chats?)?)?`;
/** After the permission: who for, and a laugh ("for me lol"). */
const TAIL_EN = String.raw`(?:\s+for\s+me)?(?:\s+(?:rn|now|right\s+now))?(?:\s+(?:lol|haha|lmao))?`;
const MARKER_EN = [
  String.raw`(?:(?:and|so)\s+)?(?:go\s+ahead\s+and\s+|feel\s+free\s+to\s+|you\s+can\s+|you\s+may\s+|it'?s\s+(?:fine|ok(?:ay)?)\s+to\s+|ok(?:ay)?\s+to\s+)?(?:tell|let|share\s+(?:this|it|that|the\s+news)\s+with|(?:mention|post|announce)\s+(?:it|this|that)\s+(?:in|to)|(?:spread|share)\s+(?:it|this|the\s+(?:news|word))\s+(?:in|to|with|among)|brag\s+about\s+(?:it|this)\s+to)\s+${AUDIENCE_EN}(?:\s+know)?${TAIL_EN}`,
  String.raw`(?:feel\s+free\s+to\s+|you\s+can\s+|go\s+ahead\s+and\s+)?(?:share|post)\s+(?:it|this)\s+in\s+(?:every|each|all\s+the|the)\s+groups?(?:\s+chats?)?${TAIL_EN}`,
  String.raw`spread\s+the\s+(?:news|word)`,
  String.raw`(?:it'?s\s+|this\s+is\s+)?not\s+a\s+secret(?:\s+at\s+all)?`,
  String.raw`no\s+need\s+to\s+keep\s+(?:it|this)\s+(?:private|a\s+secret)`,
  String.raw`${AUDIENCE_EN}\s+can\s+know`,
].join("|");

const WHOLE_CLAUSE = new RegExp(
  String.raw`^\s*(?:${BEFORE_ZH}(?:${MARKER_ZH})${AFTER_ZH}|${MARKER_EN})\s*$`,
  "iu",
);

/**
 * What makes a permission doubtful, anywhere in the message. Chinese: a question, a condition,
 * a later time, a wish, a contrast, an opinion or a report of someone else's, a limit to one
 * listener, a joke, a take-back or a correction. English the same.
 */
const DOUBT_ZH = new RegExp(
  [
    String.raw`[?？]|吗|呢|么(?=\s*(?:$|[，。！？,.!?]))`,
    "但|可是|不过|然而|却|才怪|个屁|想多了|开玩笑|玩笑|骗你|逗你|呵呵|笑话|随你便|爱咋咋",
    "如果|要是|假如|万一|除非|的话|以后|之后|等[我他她你到结]|再(?:说|告诉|公开|讲)",
    "就好了|以为|希望|我想|也想|真想|好想|觉得|认为",
    "不一定|不确定|能不能|可不可以|要不要|不行|不能|不可以|不要|(?<![特区分级类性告])别(?!人)|算了",
    "只跟你|只告诉你|只有你|知道就行|外传|谁都不|不许|不准|除了|其他的|其它的|其余",
    // The same in Cantonese: 唔好 / 唔可以 / 咪 (don't), 其他嘢 (anything else).
    "唔好|唔可以|唔得|唔准|千祈|咪(?:講|讲|話|话|同|俾)|其他嘢|其它嘢",
    // A correction ("不对", "哦不", "等等") or the person telling it themselves leaves the bot nothing to tell.
    "不对|哦不|啊不|等等|等一下|我(?:自己|亲自)(?:去|来)?(?:说|讲|告诉|公布|宣布|发)|还是我",
    // A dare ("去啊 去群里说啊", "有本事你去说", "你说一个试试") permits nothing.
    "去啊|有本事|试试|(?:说|讲)啊",
    "(?<![跟和对同给让诉])(?:他|她|妈|爸|老板|医生|老师|领导|朋友|同事|家里|别人)\\S{0,2}(?:说|讲)",
  ].join("|"),
  "u",
);
const DOUBT_EN =
  /\b(?:but|if|unless|after|once|when|until|wish|could|would|not\s+now|never|except|only|said|says|thinks?|joke|joking|kidding|wait|actually|myself|nevermind|nah|scratch\s+that|second\s+thoughts?)\b|\bdon'?t\W*$|\b(?:don'?t|do\s+not)\s+(?:tell|share|mention|say|spread|let|post)\b|\bi(?:'?ll|\s+will)\s+(?:tell|say|announce|post|share)\b/iu;

/**
 * Where a clause ends: punctuation, a line break, or a space between two Chinese characters or
 * where Chinese and English meet ("我拿到offer了 you can tell everyone").
 */
const CLAUSE_BREAK =
  /[，。！？；,.!?;:：\n~～…、—]+|(?<=\p{Script=Han})\s+(?=\p{Script=Han}|[A-Za-z0-9])|(?<=[A-Za-z0-9])\s+(?=\p{Script=Han})/gu;

/**
 * The longest message whose permission is read. Every clause after a permission is checked
 * against it, so the cost grows with the square of the clauses; a longer message is shared only
 * by `/share`, which is the safe way to miss a permission.
 */
const MAX_PERMISSION_TEXT = 2_000;

/** The spans of the original text that are share markers; none when anything casts doubt on them. */
export function shareMarkerSpans(text: string): Span[] {
  if (text.length > MAX_PERMISSION_TEXT) return [];
  const t = detectionText(text);
  if (DOUBT_ZH.test(t.text) || DOUBT_EN.test(t.text)) return [];
  const out: Span[] = [];
  let start = 0;
  const breaks = [...t.text.matchAll(CLAUSE_BREAK)].map((m) => ({
    at: m.index,
    after: m.index + m[0].length,
  }));
  for (const { at, after } of [...breaks, { at: t.text.length, after: t.text.length }]) {
    const clause = t.text.slice(start, at);
    const first = bare(t.text.slice(0, start)) === "";
    if (WHOLE_CLAUSE.test(clause) && !reportsTelling(clause) && coversWhatIsSaid(t.text.slice(at), first))
      out.push(originalSpan(t, { start, end: at }));
    start = after;
  }
  return out;
}

/** Telling done already ("跟他们说了", "传到群里了"), with no word that allows more. */
const TOLD =
  /(?:说|讲|提|通知|宣传|传|炫耀|公布|发|转|告诉)\p{Script=Han}{0,4}?(?:了|过)[哈啊呀啦哦喔噢的]*\s*$/u;
const ALLOWS = /可以|能|尽管|随便|允许|准你|都行|也行|没关系|无所谓|吧/u;

/**
 * "我辞职了，跟他们说了" reports that the person told people; it permits the bot nothing, and
 * "他们" may be three colleagues. "可以跟大家说了" and "跟大家说了吧" still permit.
 */
function reportsTelling(clause: string): boolean {
  return TOLD.test(clause) && !ALLOWS.test(clause);
}

/**
 * What may follow a permission without adding anything of its own: the permission said again
 * ("不用保密", "无所谓", "我同意的", "no secret"), who may hear it ("大家知道也没事"), why ("方便大家来
 * 玩", "so people know", "让大家别担心"), or a laugh. Anything else is another matter the
 * permission was not given for ("…群里随便说 然后我跟我爸吵架了").
 */
const ADDS_NOTHING = new RegExp(
  [
    String.raw`(?:不用|不必|用不着|没必要)(?:再|帮我|替我)?(?:保密|瞒着?|藏着|隐瞒|问我)了?`,
    String.raw`没(?:问题|事|关系)的?|无所谓|我同意的?|允许了?(?:允许了?)?|放开说|你?直接说|没什么好隐瞒的?`,
    String.raw`(?:大家|群友们?|群里的人|所有人|别人)?都?(?:知道|可以知道)?也?(?:没事|没关系|无所谓|好)`,
    String.raw`我不介意|想?让大家都?知道`,
    String.raw`(?:说实话)?不是(?:什么)?秘密|(?:群友|大家|别人)?问起来?(?:可以|就)?直说`,
    String.raw`(?:方便|好让|让)(?:大家|群友们?|他们)\p{Script=Han}{0,8}|欢迎(?:大家)?来玩`,
    String.raw`(?:so\s+)?(?:people|everyone)\s+know|i\s+don'?t\s+mind|(?:it'?s\s+)?(?:no|not\s+a)\s+secret(?:\s+at\s+all)?|tell\s+(?:whoever|anyone)\s+you\s+(?:like|want)|rn|now`,
  ]
    .map((a) => `(?:${a})`)
    .join("|"),
  "iu",
);
const FOLLOWS = new RegExp(String.raw`^\s*(?:${ADDS_NOTHING.source})[吧哈啊呀啦了哦喔噢的哟嘿]*\s*$`, "iu");

/** A clause without its spaces, punctuation, emoji and laughs: empty when it says nothing. */
const bare = (clause: string) => clause.replace(/[\s\p{P}\p{S}哈呵嘿嘻啦吧哦呀嗯]/gu, "");

/**
 * A permission covers what it follows ("我升职了，可以告诉大家"), what its colon introduces
 * ("可以告诉大家：我要当爸爸了…"), or, when it opens the message, the rest of its sentence
 * ("跟大家说吧，我脱单了"). Every clause after what it covers must add nothing; otherwise
 * ("…可以告诉大家。我还得了抑郁症", "…群里随便说 然后…") the message is not shared.
 */
function coversWhatIsSaid(after: string, first: boolean): boolean {
  if (/^\s*[:：]/.test(after)) return true;
  const end = after.search(/[。！？!?\n]/u);
  const rest = first ? (end < 0 ? "" : after.slice(end)) : after;
  return rest.split(CLAUSE_BREAK).every((c) => bare(c) === "" || FOLLOWS.test(c) || WHOLE_CLAUSE.test(c));
}
