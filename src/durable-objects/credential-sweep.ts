/**
 * This chat's stores read again by today's detectors
 * (docs/decisions/0990-logs-kept-before-a-detector-read-them.md): its message log a page at a
 * time (log-sweep.ts), and on the first page the short-term context, the dream journal, the
 * reply plans and the open reminders, which are small. With `mask` the rows that hold a value are rewritten — the log's
 * full-text index and turn windows follow by the log's triggers, and the old terms leave the
 * index pages (fts-erase.ts); without it they are only counted. D1's copy of the log is swept by
 * the Worker (d1-log-sweep.ts). Nothing keeps a value aside: each page reads its values again.
 */

import {
  planSweep,
  READ_BEFORE,
  type SweepAsk,
  type SweepPage,
  sweptText,
  valuesHider,
  valuesReadIn,
} from "../domain/history/log-sweep";
import { type MessageLogRow, recordOfLogRow } from "../domain/history/message-log-row";
import type { DreamJournal } from "./dream-journal";
import { compactIndexes } from "./fts-erase";
import type { RecentTurns } from "./recent-turns";
import type { Reminders } from "./reminders";
import type { ReplyPlan } from "./reply-plan";

/** `afterSeq` 0 starts the chat, its small stores with it. */
export type CredentialSweepAsk = SweepAsk;

/** A page of the log, and the rows of the short-term context, dream journal, reply plans and open reminders that hold a value (first page only). */
export type CredentialSweepOutcome = SweepPage & { readonly other: number };

type Stores = {
  readonly sql: SqlStorage;
  readonly recent: RecentTurns;
  readonly journal: DreamJournal;
  readonly replies: ReplyPlan;
  readonly reminders: Reminders;
};

export function sweepCredentialsHere(d: Stores, ask: CredentialSweepAsk): CredentialSweepOutcome {
  const other = ask.afterSeq === 0 ? sweepSmallStores(d, ask.mask) : 0;
  const rows = (sql: string, ...params: number[]) =>
    d.sql.exec<MessageLogRow & { seq: number }>(sql, ...params).toArray();
  const page = rows(
    "SELECT * FROM messages WHERE seq > ? ORDER BY seq LIMIT ?",
    ask.afterSeq,
    ask.maxRows + READ_BEFORE,
  );
  const before = rows(
    "SELECT * FROM messages WHERE seq <= ? ORDER BY seq DESC LIMIT ?",
    ask.afterSeq,
    READ_BEFORE,
  ).reverse();
  const plan = planSweep(before.map(recordOfLogRow), page.map(recordOfLogRow), ask.maxRows, ask.mask);
  for (const { index, record: r } of plan.rewrite)
    d.sql.exec(
      "UPDATE messages SET text = ?, tokens = ?, raw_json = ? WHERE seq = ?",
      r.text,
      r.tokens,
      r.rawJson,
      page[index]?.seq ?? -1,
    );
  // The old terms leave the index pages too (fts-erase.ts).
  if (plan.rewrite.length > 0) compactIndexes(d.sql);
  return {
    read: plan.read,
    holding: plan.holding,
    other,
    nextSeq: plan.endsAt === null ? null : (page[plan.endsAt]?.seq ?? null),
  };
}

/**
 * The short-term context, dream journal, reply plans and open reminders: read once for their values (a `hide`
 * that changes nothing writes nothing), then each text masked as a message is, with those values
 * hidden. Counted only, without `mask`.
 */
function sweepSmallStores(d: Stores, mask: boolean): number {
  const stores = [d.recent, d.journal, d.replies, d.reminders];
  const values: string[] = [];
  for (const s of stores)
    s.hide(0, (t) => {
      values.push(...valuesReadIn(t));
      return t;
    });
  if (values.length === 0) return 0;
  const hide = valuesHider(values);
  if (mask) return stores.reduce((n, s) => n + s.hide(0, (t) => sweptText(t, hide)), 0);
  let holding = 0;
  for (const s of stores)
    s.hide(0, (t) => {
      if (sweptText(t, hide) !== t) holding++;
      return t;
    });
  return holding;
}
