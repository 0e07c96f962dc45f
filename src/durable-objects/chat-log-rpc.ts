/**
 * The message-log methods of a chat object (docs/storage.md#messages): reads of its log for
 * other chats and the admin, messages logged from outside the chat, a left-out person's forget,
 * one day for the daily summary, the storage switch, and the owner's migration of the chat's D1
 * log into it (docs/storage.md#moving-the-log-into-the-chat-objects). ChatSession extends this
 * class: the platform serves a Durable Object's inherited methods over RPC like its own, so
 * callers keep calling `stub.logSearch(…)` on the chat's object, while chat-session.ts keeps to
 * the inbox, the turns and the alarm. Each method hands the work to the module named beside it.
 */
import { DurableObject } from "cloudflare:workers";
import type {
  BrowsedMessage,
  LoggedMessage,
  LogPageAsk,
  MessageFilter,
} from "../composition/chat-object/chat-object-door";
import type { ChatKey } from "../domain/chat/chat-address";
import type { ChatLogListing, ChatLogSearch } from "../domain/history/chat-log-reader";
import type { HistoryHit } from "../domain/history/history-search-port";
import type { MessageRecord } from "../domain/history/message-record";
import type { ExportMessage } from "../domain/sessions/session-registry";
import type { DayMessage } from "../domain/summary/day-message";
import { type AccountForgetOutcome, forgetAccountHere } from "./account-forget";
import { type LogHome, logHomeOf } from "./chat-log-home";
import type { ChatParts } from "./chat-parts";
import {
  type CredentialSweepAsk,
  type CredentialSweepOutcome,
  sweepCredentialsHere,
} from "./credential-sweep";
import { type AppendOutcome, appendToLog } from "./log-append";
import { flushLogCountsSoon } from "./log-counts-alarm";
import { type LogDayQuery, readLogDay } from "./log-day";
import {
  chatLogCount,
  type FinishOutcome,
  finishImport,
  type ImportOutcome,
  type ImportRow,
  importPage,
  ownChat,
  rollBackHome,
} from "./log-import";

export abstract class ChatLogRpc extends DurableObject<Env> {
  readonly #parts: ChatParts;

  /** `parts`: the object's own, built once by ChatSession, which keeps them too. */
  constructor(ctx: DurableObjectState, env: Env, parts: ChatParts) {
    super(ctx, env);
    this.#parts = parts;
  }

  /** Full-text matches in this chat's log for a reader in another chat (log-reads.ts). */
  async logSearch(q: ChatLogSearch): Promise<HistoryHit[]> {
    return this.#parts.logReads.search(q);
  }

  /** This chat's newest messages, for a reader in another chat (log-reads.ts). */
  async logRecent(q: ChatLogListing): Promise<HistoryHit[]> {
    return this.#parts.logReads.recent(q);
  }

  /** The names this chat's messages were sent under, most recently used first. */
  async logSenders(): Promise<string[]> {
    return this.#parts.logReads.senders();
  }

  /** A page of this chat's log for the admin API, newest first (log-browse.ts). */
  async logPage(q: LogPageAsk): Promise<LoggedMessage[]> {
    return this.#parts.logBrowse.page(q);
  }

  /** This chat's log filtered for the dashboard's history view, newest first. */
  async logBrowse(filter: MessageFilter): Promise<BrowsedMessage[]> {
    return this.#parts.logBrowse.browse(filter);
  }

  /** The latest messages of this chat's log for a session export, oldest first. */
  async logExport(): Promise<ExportMessage[]> {
    return this.#parts.logBrowse.exportLog();
  }

  /** One day of this chat's log for its daily summary (log-day.ts). */
  async logDay(q: LogDayQuery): Promise<DayMessage[]> {
    const { chatKey } = this.#parts;
    return readLogDay({ env: this.env, storage: this.ctx.storage, sql: this.ctx.storage.sql, chatKey }, q);
  }

  /**
   * Messages of this chat logged from outside it (log-append.ts): a relayed message, fetched
   * history. Refused whole when a record is another chat's.
   */
  async appendLog(chat: ChatKey, records: readonly MessageRecord[]): Promise<AppendOutcome> {
    const settings = await this.#parts.services().settings.current();
    const outcome = appendToLog({ storage: this.ctx.storage, ...this.#parts }, chat, records, settings);
    await flushLogCountsSoon(this.#parts);
    return outcome;
  }

  /**
   * `/session store off|on` of this chat: while off, nothing more of the chat is logged here
   * (the D1 trigger of migration 0100 drops it there). Called after the switch is saved.
   */
  async setLogStore(enabled: boolean): Promise<void> {
    this.#parts.log.setStoreOff(!enabled);
  }

  /**
   * A left-out person's past in this chat (account-forget.ts): their messages in this chat's
   * log, their rows still waiting for D1 or for dreaming, and their recent turns. Called for
   * every chat they were seen in, before their D1 rows go; a re-run finds nothing more.
   */
  async forgetAccount(account: string): Promise<AccountForgetOutcome> {
    const { outbox, journal, recent, reminders } = this.#parts;
    return forgetAccountHere({ sql: this.ctx.storage.sql, outbox, journal, recent, reminders }, account);
  }

  /**
   * This chat's stores read again by today's detectors, one page of the log a call, the small
   * stores with the first (credential-sweep.ts); with `mask`, what holds a value is rewritten.
   */
  async sweepCredentials(ask: CredentialSweepAsk): Promise<CredentialSweepOutcome> {
    const { recent, journal, replies, reminders } = this.#parts;
    return sweepCredentialsHere({ sql: this.ctx.storage.sql, recent, journal, replies, reminders }, ask);
  }

  // The owner's migration of this chat's D1 log into the object (log-import.ts).

  /** Where this chat's log is read from. */
  async logHome(): Promise<LogHome> {
    return logHomeOf(this.ctx.storage.sql);
  }

  /** How many rows of this chat the object's log holds, recalled ones included. */
  async logCount(): Promise<number> {
    const chat = ownChat(this.#importDeps());
    return chat === null ? this.#parts.log.count() : chatLogCount(this.ctx.storage.sql, chat);
  }

  /** One page of the chat's D1 rows, written once each, or refused whole. */
  async importLog(rows: readonly ImportRow[]): Promise<ImportOutcome> {
    return importPage(this.#importDeps(), rows);
  }

  /** Makes the object the log's home if it holds D1's `expectedCount` rows of the chat. */
  async finishImport(expectedCount: number): Promise<FinishOutcome> {
    return finishImport(this.#importDeps(), expectedCount);
  }

  /** The rollback: reads go back to D1, and what only this object logged meanwhile is sent there. */
  async resetLogHome(): Promise<{ home: LogHome; resent: number; recalls: number }> {
    const now = Date.now();
    const done = rollBackHome({ ...this.#importDeps(), outbox: this.#parts.outbox }, now);
    // The queued rows wait for a flush: make sure an alarm comes.
    if (done.resent + done.recalls > 0) {
      const settings = await this.#parts.services().settings.current();
      await this.#parts.alarm.ensureBy(this.#parts.flusher.windowEnd(settings, now));
    }
    return done;
  }

  #importDeps() {
    return { storage: this.ctx.storage, meta: this.#parts.meta, name: this.ctx.id.name };
  }
}
