/**
 * A chat-wide wait for an answer, kept in the chat object's credential cues: a question opens it
 * for a number of messages, an answer or the last message it allows closes it, and any other
 * message counts it down, the question's time kept. The key is `<head>|<messages left>` → when
 * the question was asked; the head names the wait (and may name who asked). Used by
 * asked-credential.ts and asked-in-words.ts.
 */

type Cues = Readonly<Record<string, number>>;

/** Which wait a key belongs to: a pattern whose first group is the head, its second the count. */
export type WaitKey = RegExp;

/** The open wait of `key`: its head, the messages it still allows and when it opened; or null. */
export function openWait(cues: Cues, key: WaitKey): { head: string; left: number; at: number } | null {
  for (const [k, at] of Object.entries(cues)) {
    const m = key.exec(k);
    if (m) return { head: m[1] ?? "", left: Number(m[2]), at };
  }
  return null;
}

/**
 * The cues after a message: `opens` (a head) opens a new wait of `reach` messages; an answer, or
 * the last message the wait allows, closes it; any other message counts it down.
 */
export function waitAfter(
  cues: Cues,
  key: WaitKey,
  message: { opens: string | null; answered: boolean },
  reach: number,
  now: number,
): Record<string, number> {
  const rest = Object.fromEntries(Object.entries(cues).filter(([k]) => !key.test(k)));
  if (message.opens !== null) return { ...rest, [`${message.opens}|${reach}`]: now };
  const wait = openWait(cues, key);
  if (!wait || message.answered || wait.left <= 1) return rest;
  return { ...rest, [`${wait.head}|${wait.left - 1}`]: wait.at };
}
