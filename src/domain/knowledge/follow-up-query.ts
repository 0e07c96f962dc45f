/**
 * Deterministic context fusion for follow-up questions ("那它的缓存呢？"): a question that leans
 * on what was said before — it opens by continuing ("那…", "如果…", "还有…"), points back
 * ("它", "这个", "两种…") before anything in it could be what it points to, asks "…呢/…吗",
 * or is too short to stand alone — is searched after the chat's previous user turns, one line
 * each, oldest first. The pipeline weighs each earlier line at half the next
 * (docs/retrieval.md#pipeline), so the subject the previous turn named is carried forward
 * without outweighing what is asked now. Measured:
 * docs/decisions/0022-follow-up-detection-by-first-clause.md.
 */
/** What fusion reads of a recent turn of the chat. */
export type EarlierTurn = { readonly role: "user" | "assistant"; readonly text: string };

/** Earlier user turns carried forward at most. */
export const FOLLOW_UP_TURNS = 2;

/** Below this many characters (punctuation and spaces aside) a question rarely stands alone. */
const SHORT = 8;

/** Openings that continue what was said: "那…", "这…", "如果…", "还有…", "另外…". */
const CONTINUES = /^(那|这|其|如果|假如|要是|万一|还有|还能|还可以|另外|然后|而且|并且|但是|可是|不过|同样)/u;

/**
 * Words that point back ("它", "这个", "这种写法", "两种"): a follow-up when they come in the
 * question's first clause, before anything they could point to in the question itself ("想把它留住"
 * after a clause that names what "它" is does not lean on earlier turns).
 */
const POINTS_BACK =
  /(它|它们|这个|那个|这些|那些|这种|那种|这样|那样|这里|那里|上面|上述|刚才|前面|之前|两种|两者|二者|另一|别的|其他|其它)/u;

/** A question that ends by asking "what about …呢". */
const WHAT_ABOUT = /呢[？?]?$/u;

/**
 * "…吗": a yes/no question, often about the thing just discussed ("能用在组件上吗"), at the end
 * or ending a sentence that an example follows ("能同时绑两个吗？比如…").
 */
const ENDS_MA = /吗([？?]|$)/u;

const ENGLISH_BACK = /\b(it|its|this|that|they|them|those)\b/iu;

/** Up to the first clause break: a pointing word here has nothing before it to point to. */
const FIRST_CLAUSE = /^[^，,；;。.！!？?]*/u;

const NOISE = /[\p{P}\p{S}\s]/gu;

/** True when the question leans on earlier turns. */
export function isFollowUp(question: string): boolean {
  const q = question.trim();
  if (q === "") return false;
  return (
    q.replace(NOISE, "").length < SHORT ||
    CONTINUES.test(q) ||
    POINTS_BACK.test(FIRST_CLAUSE.exec(q)?.[0] ?? "") ||
    WHAT_ABOUT.test(q) ||
    ENDS_MA.test(q) ||
    ENGLISH_BACK.test(q)
  );
}

/**
 * The text to search for `question`: itself, or after a follow-up the previous user turns of
 * the same chat (newest last), without the question itself and without repeats.
 */
export function followUpQuery(question: string, recent: readonly EarlierTurn[]): string {
  if (!isFollowUp(question)) return question;
  return [...earlierUserTurns(question, recent), question.trim()].join("\n");
}

/** The previous user turns a follow-up is read with: at most FOLLOW_UP_TURNS, one line each, oldest first. */
export function earlierUserTurns(question: string, recent: readonly EarlierTurn[]): string[] {
  const q = question.trim();
  const earlier = recent
    .filter((t) => t.role === "user")
    .map((t) => t.text.replace(/\s*\n\s*/g, " ").trim())
    .filter((t) => t !== "" && t !== q);
  return [...new Set(earlier)].slice(-FOLLOW_UP_TURNS);
}
