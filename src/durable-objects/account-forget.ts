/**
 * A left-out person's past in this chat (docs/settings.md#privacy-leaving-a-person-out): their
 * own messages in this chat's log — the log's triggers take their full-text rows, turn windows
 * and sender counts with them — their rows still waiting for the D1 flush, which would write
 * that past back after D1's delete, their chatter not triaged yet (a value held for its naming),
 * their turns waiting for dreaming, their turns in the short-term context, which the chat's next
 * prompts would read, and the open reminders they set, which would say their words later. Matched by the exact
 * account key as a bound value, so a key holding `%`, `_` or quotes matches itself alone; a
 * value that is no account key is refused before anything is read. Idempotent: a re-run finds
 * nothing more. The log goes in chunks, each its own write, so a log too big for one call is
 * finished by the next instead of being rolled back whole.
 */
import { parseAccountKey } from "../domain/chat/chat-address";
import { type LogHome, logHomeOf } from "./chat-log-home";
import type { DreamJournal } from "./dream-journal";
import { compactIndexes } from "./fts-erase";
import { Inbox } from "./inbox";
import type { Outbox } from "./outbox";
import type { RecentTurns } from "./recent-turns";
import type { Reminders } from "./reminders";

export type AccountForgetOutcome = {
  /** Rows deleted from this chat's log. */
  readonly logged: number;
  /** Rows of theirs that had not reached D1 yet (messages, sightings). */
  readonly unflushed: number;
  /** Their chatter the object had not triaged yet, values held for their naming among it. */
  readonly untriaged: number;
  /** Their turns that waited for dreaming. */
  readonly journal: number;
  /** Their turns in the short-term context (recent-turns.ts `dropAccount`). */
  readonly recent: number;
  /** Their open reminders, cancelled (reminders.ts `dropAccount`). */
  readonly reminders: number;
  /** Where this chat's log is read from: `d1` when D1 holds the chat's whole log (chat-log-home.ts). */
  readonly home: LogHome;
};

const CHUNK = 500;

export function forgetAccountHere(
  d: {
    readonly sql: SqlStorage;
    readonly outbox: Outbox;
    readonly journal: DreamJournal;
    readonly recent: RecentTurns;
    readonly reminders: Reminders;
  },
  account: string,
): AccountForgetOutcome {
  const parsed = parseAccountKey(account);
  if (!parsed.ok) throw new Error(`not an account key: ${parsed.error.reason}`);
  const key = parsed.value.key;
  const unflushed = d.outbox.dropAccount(key);
  const untriaged = new Inbox(d.sql).dropChatter(Date.now(), key);
  const journal = d.journal.dropAccount(key);
  const recent = d.recent.dropAccount(key);
  const reminders = d.reminders.dropAccount(key);
  let logged = 0;
  for (;;) {
    const seqs = d.sql
      .exec<{ seq: number }>("SELECT seq FROM messages WHERE account_key = ? LIMIT ?", key, CHUNK)
      .toArray()
      .map((r) => r.seq);
    if (seqs.length === 0) break;
    d.sql.exec("DELETE FROM messages WHERE seq IN (SELECT value FROM json_each(?))", JSON.stringify(seqs));
    logged += seqs.length;
    if (seqs.length < CHUNK) break;
  }
  // Erased, not tombstoned: their words leave the full-text indexes' pages too (fts-erase.ts).
  if (logged > 0) compactIndexes(d.sql);
  return { logged, unflushed, untriaged, journal, recent, reminders, home: logHomeOf(d.sql) };
}
