/**
 * Rows waiting to be written to D1, in the chat object's SQLite. A row leaves the outbox
 * only after the D1 batch that carries it succeeded, so a failed flush loses nothing. Message
 * rows of the chat itself go to its own log instead (decision 0471), and to D1 only while its
 * log is still read from there (chat-log-home.ts).
 */

import type {
  AuditRecord,
  ChatTouch,
  FlushBatch,
  MessageRewrite,
  RecallMark,
} from "../domain/history/message-log";
import type { MessageRecord } from "../domain/history/message-record";
import { mergeObservations } from "../domain/identity/account-observation";
import type { AccountObservation } from "../domain/identity/identity-directory";
import { maskAuditCredentials } from "../domain/kernel/audit";
import type { UsageRecord } from "../domain/model/chat-model";

export type OutboxItem =
  | { kind: "message"; body: MessageRecord }
  | { kind: "recall"; body: RecallMark }
  | { kind: "rewrite"; body: MessageRewrite }
  | { kind: "chat"; body: ChatTouch }
  | { kind: "usage"; body: UsageRecord & { dedupeKey: string } }
  | { kind: "audit"; body: AuditRecord }
  | { kind: "observation"; body: AccountObservation };

export class Outbox {
  readonly #sql: SqlStorage;
  /**
   * The row count, mirrored in memory: the drain asks after every turn and the flusher twice
   * per alarm, and a count walks the whole table. This object is the only writer. A push
   * rolled back with its transaction leaves the mirror high, never low: a flush comes early
   * and finds less, and an empty take resets it.
   */
  #size: number | null = null;
  readonly #keptElsewhere: (item: OutboxItem) => boolean;
  /**
   * `keptElsewhere` sees every row as it is pushed, in the same transaction, and says whether the
   * row is done with: the chat's own log in the object (local-log.ts) takes its message rows and
   * recall marks from here, so every path that logs a message (triage, replies, reminders)
   * writes it there; only a chat whose log is still read from D1 also sends them to D1.
   */
  constructor(sql: SqlStorage, keptElsewhere: (item: OutboxItem) => boolean = () => false) {
    this.#sql = sql;
    this.#keptElsewhere = keptElsewhere;
  }

  push(item: OutboxItem, now: number): void {
    if (this.#keptElsewhere(item)) return;
    // An audit row waits here for its flush: it is stored already, so it is masked already.
    const body = item.kind === "audit" ? maskAuditCredentials(item.body) : item.body;
    this.#sql.exec(
      "INSERT INTO outbox (kind, body, created_at) VALUES (?, ?, ?)",
      item.kind,
      JSON.stringify(body),
      now,
    );
    if (this.#size !== null) this.#size++;
  }

  size(): number {
    this.#size ??= this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM outbox").one().n;
    return this.#size;
  }

  /** The oldest `limit` rows as one flush batch, plus the last seq it covers. */
  take(limit: number): { batch: FlushBatch; upTo: number; rows: number } | null {
    const rows = this.#sql
      .exec<{ seq: number; kind: OutboxItem["kind"]; body: string }>(
        "SELECT seq, kind, body FROM outbox ORDER BY seq LIMIT ?",
        limit,
      )
      .toArray();
    const last = rows.at(-1);
    if (!last) {
      this.#size = 0;
      return null;
    }
    const batch = {
      messages: [] as MessageRecord[],
      recalls: [] as RecallMark[],
      rewrites: [] as MessageRewrite[],
      chats: new Map<string, ChatTouch>(),
      usage: [] as (UsageRecord & { dedupeKey: string })[],
      audit: [] as AuditRecord[],
      observations: new Map<string, AccountObservation>(),
    };
    for (const row of rows) {
      const body: unknown = JSON.parse(row.body);
      if (row.kind === "message") batch.messages.push(body as MessageRecord);
      else if (row.kind === "recall") batch.recalls.push(body as RecallMark);
      else if (row.kind === "rewrite") batch.rewrites.push(body as MessageRewrite);
      else if (row.kind === "usage") batch.usage.push(body as UsageRecord & { dedupeKey: string });
      else if (row.kind === "audit") batch.audit.push(body as AuditRecord);
      else if (row.kind === "chat") mergeTouch(batch.chats, body as ChatTouch);
      else if (row.kind === "observation") mergeObservation(batch.observations, body as AccountObservation);
    }
    return {
      batch: { ...batch, chats: [...batch.chats.values()], observations: [...batch.observations.values()] },
      upTo: last.seq,
      rows: rows.length,
    };
  }

  /**
   * Drops the chat's not-yet-flushed content (messages, recall marks, rewrites, observations) for a
   * forget; usage and audit rows stay.
   */
  dropContent(): number {
    const n = this.#sql
      .exec<{ n: number }>(
        "SELECT count(*) AS n FROM outbox WHERE kind IN ('message', 'recall', 'rewrite', 'observation')",
      )
      .one().n;
    this.#sql.exec("DELETE FROM outbox WHERE kind IN ('message', 'recall', 'rewrite', 'observation')");
    this.#size = null;
    return n;
  }

  /**
   * Drops one account's not-yet-flushed messages and sightings (a left-out person's past,
   * account-forget.ts): flushed after D1's delete, they would write that past back.
   */
  dropAccount(account: string): number {
    const where = `(kind = 'message' AND json_extract(body, '$.accountKey') = ?)
      OR (kind = 'observation' AND json_extract(body, '$.account') = ?)`;
    const n = this.#sql
      .exec<{ n: number }>(`SELECT count(*) AS n FROM outbox WHERE ${where}`, account, account)
      .one().n;
    if (n > 0) this.#sql.exec(`DELETE FROM outbox WHERE ${where}`, account, account);
    this.#size = null;
    return n;
  }

  /**
   * Rewrites the waiting rows that `rewrite` changes, in place and in order: a value named a
   * secret after it was queued here (named-after-logging.ts). Returns how many changed.
   */
  rewrite(rewrite: (item: OutboxItem) => OutboxItem): number {
    const rows = this.#sql
      .exec<{ seq: number; kind: OutboxItem["kind"]; body: string }>("SELECT seq, kind, body FROM outbox")
      .toArray();
    let changed = 0;
    for (const row of rows) {
      const item = { kind: row.kind, body: JSON.parse(row.body) } as OutboxItem;
      const after = rewrite(item);
      if (after === item) continue;
      this.#sql.exec("UPDATE outbox SET body = ? WHERE seq = ?", JSON.stringify(after.body), row.seq);
      changed++;
    }
    return changed;
  }

  /** Removes rows up to and including `seq` after their batch was written. */
  remove(upTo: number): void {
    this.#sql.exec("DELETE FROM outbox WHERE seq <= ?", upTo);
    this.#size = null;
  }
}

/** Several observations of one account in one chat within a batch become one upsert. */
function mergeObservation(into: Map<string, AccountObservation>, seen: AccountObservation): void {
  const key = `${seen.account}\u0000${seen.chatKey}`;
  const prior = into.get(key);
  into.set(key, prior ? mergeObservations(prior, seen) : seen);
}

/** The later touch's title, else the earlier one's: an event without a name keeps the last name seen. */
function titleOf(later: ChatTouch, earlier: ChatTouch): { title?: string } {
  const title = later.title ?? earlier.title;
  return title === undefined ? {} : { title };
}

/** Several touches of one chat in a batch become one upsert carrying the latest flags and name. */
function mergeTouch(into: Map<string, ChatTouch>, touch: ChatTouch): void {
  const prior = into.get(touch.chatKey);
  if (!prior) {
    into.set(touch.chatKey, touch);
    return;
  }
  const later = touch.seenAt >= prior.seenAt ? touch : prior;
  into.set(touch.chatKey, {
    ...later,
    seenAt: Math.max(prior.seenAt, touch.seenAt),
    ...titleOf(later, later === touch ? prior : touch),
    ...(touch.botPresent === undefined
      ? prior.botPresent === undefined
        ? {}
        : { botPresent: prior.botPresent }
      : { botPresent: touch.botPresent }),
    ...(touch.pushEnabled === undefined
      ? prior.pushEnabled === undefined
        ? {}
        : { pushEnabled: prior.pushEnabled }
      : { pushEnabled: touch.pushEnabled }),
  });
}
