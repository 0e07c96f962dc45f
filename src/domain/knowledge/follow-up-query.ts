/**
 * Deterministic context fusion for follow-up questions ("那它的缓存呢？"): a question that leans
 * on what was said before — it refers back (那/它/这个/this/it…) or is too short to stand alone —
 * is searched after the chat's previous user turns, one line each, oldest first. The pipeline
 * weighs each earlier line at half the next (docs/retrieval.md#pipeline), so the subject the
 * previous turn named is carried forward without outweighing what is asked now.
 */
/** What fusion reads of a recent turn of the chat. */
export type EarlierTurn = { readonly role: "user" | "assistant"; readonly text: string };

/** Earlier user turns carried forward at most. */
export const FOLLOW_UP_TURNS = 2;

/** Below this many characters (punctuation and spaces aside) a question rarely stands alone. */
const SHORT = 8;

const REFERS_BACK =
  /^(那|那么|那它|它|它们|这个|那个|这些|那些|这|其|该|还有|另外|然后|如果是|要是)|(它|它们|这个|那个|这种|那种|上面|刚才|前面|同样)|(呢|吗)[？?]?$|\b(it|its|this|that|they|them|those)\b/iu;

const NOISE = /[\p{P}\p{S}\s]/gu;

/** True when the question leans on earlier turns. */
export function isFollowUp(question: string): boolean {
  const q = question.trim();
  if (q === "") return false;
  return q.replace(NOISE, "").length < SHORT || REFERS_BACK.test(q);
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
