/**
 * Writes the chat objects' buffered rows to D1: message-log rows, recall marks, the chat
 * registry row, usage, audit rows and account observations — all of one flush in one D1 batch (one transaction),
 * so a failed flush writes nothing and can be retried whole. Every statement is idempotent
 * (unique keys + ON CONFLICT), so a retry after an unacknowledged success changes nothing.
 */
import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type {
  ChatLogCounts,
  ChatTouch,
  FlushBatch,
  MessageLog,
  MessageRewrite,
  RecallMark,
} from "../../domain/history/message-log";
import { type MessageRecord, maskedRecord } from "../../domain/history/message-record";
import type { AccountObservation } from "../../domain/identity/identity-directory";
import { maskSensitiveData } from "../../domain/privacy/credentials";
import { auditLogRow } from "./d1-audit-log";
import type { Database } from "./database";
import {
  accountObservations,
  auditLog,
  chatLogCounts,
  chatLogSummary,
  chats,
  messages,
  modelUsage,
} from "./schema";

export class D1MessageLog implements MessageLog {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /** Writes everything in one transaction. Throws on failure; nothing is half-written. */
  async flush(batch: FlushBatch): Promise<void> {
    const statements: BatchItem<"sqlite">[] = [
      ...batch.chats.map((c) => this.#touchChat(c)),
      ...batch.messages.map((m) => this.#insertMessage(m)),
      ...(batch.rewrites ?? []).map((r) => this.#rewrite(r)),
      ...batch.recalls.map((r) => this.#markRecalled(r)),
      ...batch.usage.map((u) => this.#db.insert(modelUsage).values(u).onConflictDoNothing()),
      ...batch.audit.map((a) => this.#db.insert(auditLog).values(auditLogRow(a)).onConflictDoNothing()),
      ...(batch.observations ?? []).map((o) => this.#observe(o)),
      ...(batch.counts ?? []).flatMap((c) => this.#counts(c)),
    ];
    const [first, ...rest] = statements;
    if (!first) return;
    await this.#db.batch([first, ...rest]);
  }

  /** One INSERT per call: the unbatched baseline the ingest benchmark compares against. */
  async insertOne(record: MessageRecord): Promise<void> {
    await this.#insertMessage(record);
  }

  // Masked here as the chat object's log masks (maskedRecord), like audit rows through
  // auditLogRow: a writer that forgot to mask (a relay, the backfill) cannot store a secret.
  #insertMessage(m: MessageRecord) {
    return this.#db.insert(messages).values(maskedRecord(m)).onConflictDoNothing();
  }

  /**
   * Words rewritten after they were logged; the FTS row and the turn windows follow by trigger,
   * the old terms out of the indexes' pages (migration 0490).
   */
  #rewrite(r: MessageRewrite) {
    return this.#db
      .update(messages)
      .set({ text: r.text, tokens: r.tokens, rawJson: r.rawJson })
      .where(
        and(
          eq(messages.transport, r.transport),
          eq(messages.chatKey, r.chatKey),
          eq(messages.messageId, r.messageId),
          eq(messages.ts, r.ts),
        ),
      );
  }

  #markRecalled(r: RecallMark) {
    return this.#db
      .update(messages)
      .set({ recalled: true })
      .where(
        and(
          eq(messages.transport, r.transport),
          eq(messages.chatKey, r.chatKey),
          eq(messages.messageId, r.messageId),
        ),
      );
  }

  /**
   * A chat's hourly counts as its object holds them (migration 0450): absolute, so a batch
   * written again sets the same numbers; an emptied hour goes. The first batch of a chat replaces
   * what D1's triggers counted; `whole` false hands the counting back to them, recounted from
   * D1's rows. The hours ride as one JSON parameter: D1 binds at most 100 per statement.
   */
  #counts(c: ChatLogCounts): BatchItem<"sqlite">[] {
    const key = c.chatKey;
    const ofChat = eq(chatLogCounts.chatKey, key);
    if (!c.whole)
      return [
        this.#db
          .update(chatLogSummary)
          .set({ inObject: 0, lastMessageAt: sql`(SELECT max(ts) FROM messages WHERE chat_key = ${key})` })
          .where(eq(chatLogSummary.chatKey, key)),
        this.#db.delete(chatLogCounts).where(ofChat),
        this.#db
          .insert(chatLogCounts)
          .select(
            sql`SELECT chat_key, (ts / 3600000) * 3600000, count(*) FROM messages WHERE chat_key = ${key} GROUP BY 1, 2`,
          ),
      ];
    const hours = JSON.stringify(c.hours.map((h) => [h.hour, h.messages]));
    return [
      this.#db
        .delete(chatLogCounts)
        .where(
          and(
            ofChat,
            sql`NOT EXISTS (SELECT 1 FROM chat_log_summary WHERE chat_key = ${key} AND in_object = 1)`,
          ),
        ),
      this.#db
        .insert(chatLogCounts)
        .select(
          sql`SELECT ${key}, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(${hours}) WHERE true`,
        )
        .onConflictDoUpdate({
          target: [chatLogCounts.chatKey, chatLogCounts.hour],
          set: { messages: sql`excluded.messages` },
        }),
      this.#db
        .delete(chatLogCounts)
        .where(
          and(
            ofChat,
            sql`${chatLogCounts.messages} <= 0 AND ${chatLogCounts.hour} IN (SELECT json_extract(value, '$[0]') FROM json_each(${hours}))`,
          ),
        ),
      this.#db
        .insert(chatLogSummary)
        .values({ chatKey: key, lastMessageAt: c.lastAt, inObject: 1 })
        .onConflictDoUpdate({
          target: chatLogSummary.chatKey,
          set: { lastMessageAt: sql`excluded.last_message_at`, inObject: 1 },
        }),
    ];
  }

  /** Upsert keeping the earliest first_seen, the latest last_seen and the latest name and role. */
  #observe(o: AccountObservation) {
    const newer = sql`excluded.last_seen >= ${accountObservations.lastSeen}`;
    return this.#db
      .insert(accountObservations)
      .values({
        accountKey: o.account,
        chatKey: o.chatKey,
        userId: o.userId,
        unionKey: o.unionKey,
        displayName: o.displayName === null ? null : maskSensitiveData(o.displayName),
        role: o.role,
        firstSeen: o.firstSeen,
        lastSeen: o.lastSeen,
      })
      .onConflictDoUpdate({
        target: [accountObservations.accountKey, accountObservations.chatKey],
        set: {
          firstSeen: sql`min(${accountObservations.firstSeen}, excluded.first_seen)`,
          lastSeen: sql`max(${accountObservations.lastSeen}, excluded.last_seen)`,
          unionKey: sql`CASE WHEN ${newer} THEN coalesce(excluded.union_key, ${accountObservations.unionKey}) ELSE coalesce(${accountObservations.unionKey}, excluded.union_key) END`,
          displayName: sql`CASE WHEN ${newer} THEN coalesce(excluded.display_name, ${accountObservations.displayName}) ELSE ${accountObservations.displayName} END`,
          role: sql`CASE WHEN ${newer} THEN coalesce(excluded.role, ${accountObservations.role}) ELSE ${accountObservations.role} END`,
        },
      });
  }

  #touchChat(c: ChatTouch) {
    // A chat's name is text its members chose, masked like the messages (mask-inbound-event.ts).
    const title = c.title === undefined ? undefined : maskSensitiveData(c.title);
    return this.#db
      .insert(chats)
      .values({
        chatKey: c.chatKey,
        channel: c.channel,
        targetType: c.targetType,
        targetId: c.targetId,
        followed: c.followed,
        botPresent: c.botPresent ?? true,
        pushEnabled: c.pushEnabled ?? true,
        title: title ?? null,
        firstSeen: c.seenAt,
        lastSeen: c.seenAt,
      })
      .onConflictDoUpdate({
        target: chats.chatKey,
        set: {
          lastSeen: sql`max(${chats.lastSeen}, excluded.last_seen)`,
          firstSeen: sql`min(${chats.firstSeen}, excluded.first_seen)`,
          followed: sql`excluded.followed`,
          ...(c.botPresent === undefined ? {} : { botPresent: c.botPresent }),
          ...(c.pushEnabled === undefined ? {} : { pushEnabled: c.pushEnabled }),
          // A renamed group: the latest name the platform gave wins; none given keeps the old one.
          ...(title === undefined ? {} : { title }),
        },
      });
  }
}
