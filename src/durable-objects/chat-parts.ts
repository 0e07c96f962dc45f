/**
 * The parts one chat object is made of, built when the object wakes, over its own SQLite
 * storage: the inbox, outbox and reply plans, the recent turns, the meta table and dream
 * journal, the alarm and reminders, and the runners that work on them. The door's services are
 * built on first use, and a turn gets them together with this object's context control, relay
 * and reminders.
 */
import {
  type ChatObjectServices,
  type ChatTurnServices,
  chatObjectServices,
  objectLogBrowser,
  objectLogHistory,
  turnHistory,
} from "../composition/chat-object/chat-object-door";
import type { ChatRelay } from "../domain/agent/chat-relay";
import type { HistorySearch } from "../domain/history/history-search-port";
import { AlarmClock } from "./alarm-clock";
import { logHomeOf } from "./chat-log-home";
import { ChatMeta } from "./chat-meta";
import { ContextReset } from "./context-reset";
import { DreamJournal } from "./dream-journal";
import { type ChatInfo, DreamRunner } from "./dream-runner";
import { Inbox } from "./inbox";
import { keepInLog, LocalLog } from "./local-log";
import { LogBrowse } from "./log-browse";
import { LogCounts } from "./log-counts";
import { LogFlusher } from "./log-flusher";
import { LogReads } from "./log-reads";
import { LogRetention } from "./log-retention";
import { Outbox } from "./outbox";
import { RecentTurns } from "./recent-turns";
import { Reminders } from "./reminders";
import { ReplyPlan } from "./reply-plan";
import { TurnRunner } from "./turn-runner";
import { yieldingModel } from "./yielding-model";

export type ChatParts = {
  readonly inbox: Inbox;
  readonly outbox: Outbox;
  readonly replies: ReplyPlan;
  readonly recent: RecentTurns;
  readonly meta: ChatMeta;
  /** This chat's message log in the object's SQLite (local-log.ts). */
  readonly log: LocalLog;
  /** Reads of this chat's log asked by others (log-reads.ts). */
  readonly logReads: LogReads;
  /** The admin's reads of this chat's log: pages, filtered history, export (log-browse.ts). */
  readonly logBrowse: LogBrowse;
  readonly journal: DreamJournal;
  readonly alarm: AlarmClock;
  readonly reminders: Reminders;
  readonly dreams: DreamRunner;
  readonly shortTermContext: ContextReset;
  readonly turns: TurnRunner;
  readonly flusher: LogFlusher;
  /** The daily retention of the chat's log in this object (log-retention.ts). */
  readonly logRetention: LogRetention;
  /** The door's services, built on first use. */
  readonly services: () => ChatObjectServices;
  /** The one bag a turn runs with: the door's services plus this object's context control and relay. */
  readonly turnServices: () => ChatTurnServices;
  /** The history a turn of this chat reads, over the given bindings (the dev probe passes a counting D1). */
  readonly turnHistoryOver: (bindings: Env) => HistorySearch;
  /** This object's chat key, null before its first event. */
  readonly chatKey: () => string | null;
};

export function chatParts(env: Env, storage: DurableObjectStorage, sql: SqlStorage): ChatParts {
  let deps: ChatObjectServices | null = null;
  let relay: ChatRelay | null = null;
  const services = (): ChatObjectServices => {
    deps ??= chatObjectServices.create(env);
    return deps;
  };
  const inbox = new Inbox(sql);
  const meta = new ChatMeta(sql);
  const log = new LocalLog(sql);
  const chatKey = () => meta.get<ChatInfo>("chat")?.key ?? null;
  // The chat's own rows go to its log here; D1 gets a copy only while it is the log's home.
  const outbox = new Outbox(sql, (item) => keepInLog(log, chatKey(), item) && logHomeOf(sql) === "object");
  const replies = new ReplyPlan(sql);
  const recent = new RecentTurns(sql);
  const journal = new DreamJournal(sql);
  const alarm = new AlarmClock(storage);
  const reminders = new Reminders(storage, sql);
  const dreams = new DreamRunner({ meta, journal, outbox, storage });
  const shortTermContext = new ContextReset({
    storage,
    meta,
    recent,
    outbox,
    chatKey,
    now: () => Date.now(),
  });
  // The chat's own log, read here once this object holds all of it (chat-log-home.ts).
  const ownHistoryOver = (e: Env) => objectLogHistory(e, storage, logHomeOf(sql) === "object");
  const logReads = new LogReads({ history: () => ownHistoryOver(env), chatKey });
  const logBrowse = new LogBrowse({
    browser: () => objectLogBrowser(env, storage, logHomeOf(sql) === "object"),
    chatKey,
  });
  const turnHistoryOver = (e: Env) =>
    turnHistory(
      e,
      services().logger,
      chatKey(),
      ownHistoryOver(e),
      e === env ? logReads : new LogReads({ history: () => ownHistoryOver(e), chatKey }),
    );
  const turnServices = (): ChatTurnServices => {
    const door = services();
    // A relayed message waits in this object's outbox like every other row of the log.
    relay ??= door.relayLoggingTo((record) => outbox.push({ kind: "message", body: record }, Date.now()));
    return {
      ...door,
      history: turnHistoryOver(env),
      model: yieldingModel(door.model),
      shortTermContext,
      relay,
      reminders,
    };
  };
  const turns = new TurnRunner({
    storage,
    inbox,
    outbox,
    replies,
    recent,
    journal,
    meta,
    reminders,
    services: turnServices,
  });
  const flusher = new LogFlusher({
    outbox,
    counts: new LogCounts(sql, () => logHomeOf(sql) === "object"),
    log: () => services().messageLog,
    logger: () => services().logger,
  });
  const logRetention = new LogRetention({ sql, storage, meta, inbox, services });
  return {
    inbox,
    outbox,
    replies,
    recent,
    meta,
    log,
    logReads,
    logBrowse,
    journal,
    alarm,
    reminders,
    dreams,
    shortTermContext,
    turns,
    flusher,
    logRetention,
    services,
    turnServices,
    turnHistoryOver,
    chatKey,
  };
}
