/**
 * The person's share marker: what makes something said in a private chat shareable
 * (docs/decisions/0510-share-marker-is-a-whole-clause.md). A wrong "yes" here is a leak — a
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

const AUDIENCE = "(?:大家|别人|其他人|所有人|任何人|群里|群友|大伙|大伙儿|他们|她们|群里的人)";
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
  `${AUDIENCE}都?(?:可以|能)(?:知道|看|说|提)`,
  `(?:告诉|跟)${AUDIENCE}(?:说)?也?(?:没关系|没事|无所谓|可以)`,
].join("|");
const BEFORE_ZH = "(?:这个|这件事|这事儿?|这些|都|也|你|你们|就|反正|嗯|好|所以|那|帮我|麻烦你?|请)*";
const AFTER_ZH = "(?:吧|哈|啊|呀|啦|了|哦|喔|噢|的|哟|嘿|都行|也行|没关系)*";
/** The permission itself, English, as a whole clause. */
const AUDIENCE_EN = String.raw`(?:the\s+group(?:\s+chat)?|everyone|anyone|everybody|anybody|others|people)`;
const MARKER_EN = [
  String.raw`(?:(?:and|so)\s+)?(?:go\s+ahead\s+and\s+|feel\s+free\s+to\s+|you\s+can\s+|you\s+may\s+|it'?s\s+(?:fine|ok(?:ay)?)\s+to\s+|ok(?:ay)?\s+to\s+)?(?:tell|let|share\s+(?:this|it|that)\s+with|mention\s+(?:it|this|that)\s+(?:in|to))\s+${AUDIENCE_EN}(?:\s+know)?`,
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
 * listener, a joke or a take-back. English the same.
 */
const DOUBT_ZH = new RegExp(
  [
    String.raw`[?？]|吗|呢|么(?=\s*(?:$|[，。！？,.!?]))`,
    "但|可是|不过|然而|却|才怪|个屁|想多了|开玩笑|玩笑|骗你|逗你",
    "如果|要是|假如|万一|除非|的话|以后|之后|等[我他她你到结]|再(?:说|告诉|公开|讲)",
    "就好了|以为|希望|我想|也想|真想|好想|觉得|认为",
    "不一定|不确定|能不能|可不可以|要不要|不行|不能|不可以|不要|(?<![特区分级类性告])别(?!人)|算了",
    "只跟你|只告诉你|只有你|知道就行|外传|谁都不|不许|不准|除了|其他的|其它的|其余",
    "(?<![跟和对同给让诉])(?:他|她|妈|爸|老板|医生|老师|领导|朋友|同事|家里|别人)\\S{0,2}(?:说|讲)",
  ].join("|"),
  "u",
);
const DOUBT_EN =
  /\b(?:but|if|unless|after|once|when|until|wish|could|would|not\s+now|never|except|only|said|says|thinks?|joke|joking|kidding)\b|\b(?:don'?t|do\s+not)\s+(?:tell|share|mention|say|spread|let|post)\b/iu;

/** Where a clause ends: punctuation, a line break, or a space between two Chinese characters. */
const CLAUSE_BREAK = /[，。！？；,.!?;:：\n~～…、—]+|(?<=\p{Script=Han})\s+(?=\p{Script=Han})/gu;

/** The spans of the original text that are share markers; none when anything casts doubt on them. */
export function shareMarkerSpans(text: string): Span[] {
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
    if (WHOLE_CLAUSE.test(clause) && coversWhatIsSaid(t.text.slice(at)))
      out.push(originalSpan(t, { start, end: at }));
    start = after;
  }
  return out;
}

/** Words that start another matter: what follows them is not what the permission was given for. */
const NEW_MATTER = /另外|还有|顺便|对了|其实|此外|also|btw|by\s+the\s+way|another\s+thing/iu;

/**
 * A permission covers what it follows ("我升职了，可以告诉大家"), the rest of its sentence when
 * that only adds to it ("…，方便大家来玩", "…, I don't mind"), or what its colon introduces
 * ("可以告诉大家：我要当爸爸了…"). Another sentence after it ("…可以告诉大家。我还得了抑郁症"), or
 * another matter ("…，另外…"), is not under it, and a message where it stands so is not shared.
 */
function coversWhatIsSaid(after: string): boolean {
  if (/^\s*[:：]/.test(after)) return true;
  const end = after.search(/[。！？!?.\n]/u);
  const sentence = end < 0 ? after : after.slice(0, end);
  const later = end < 0 ? "" : after.slice(end);
  return !NEW_MATTER.test(sentence) && later.replace(/[\s\p{P}\p{S}哈呵嘿嘻啦吧哦呀嗯]/gu, "") === "";
}
