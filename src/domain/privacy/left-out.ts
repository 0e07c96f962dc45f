/**
 * "Leave a person out" (docs/settings.md#privacy-leaving-a-person-out): whether a sender's account is on the
 * do-not-record list, and the dream journal's rows without such a person. Every writer of a
 * log asks here with the settings of the moment, so a person added while their messages wait
 * in the inbox, the outbox or the journal is left out of what is written after the add.
 */

type PrivacyView = { readonly privacy: { readonly doNotRecord: readonly string[] } };

/** True when `account` is on the do-not-record list; a message without an account never is. */
export function isLeftOut(settings: PrivacyView, account: string | null | undefined): boolean {
  return !!account && settings.privacy.doNotRecord.includes(account);
}

type JournalLike = { readonly role: "user" | "assistant"; readonly account: string | null };

/**
 * The rows without a left-out person's messages and the bot's answers to them: an assistant
 * row belongs to the user row before it, so it goes with it (an answer retells its question).
 */
export function withoutLeftOut<T extends JournalLike>(settings: PrivacyView, rows: readonly T[]): T[] {
  const kept: T[] = [];
  let skipping = false;
  for (const row of rows) {
    if (row.role === "user") skipping = isLeftOut(settings, row.account);
    if (!skipping) kept.push(row);
  }
  return kept;
}
