/**
 * ChatSession: one Durable Object per chat key. It is the only writer of its chat's turn
 * state, so two messages of one chat never race. `enqueue` only persists and sets the alarm;
 * the alarm drains the inbox oldest first, one turn at a time, sends the replies and flushes
 * buffered rows to D1. Every step is recorded before the next starts, so a retried or
 * restarted alarm resumes where it stopped and never sends a reply twice.
 */
import { DurableObject } from "cloudflare:workers";
import {
  type ChatObjectServices,
  type ChatProbe,
  type ChatTurnServices,
  chatObjectServices,
  chatProbe,
  peekSettings,
} from "../composition/chat-object/chat-object-door";
import type { ChatRelay } from "../domain/agent/chat-relay";
import type { ResetRequest, ResetResult } from "../domain/agent/short-term-context";
import { type PreviewRequest, previewTurn, type TurnPreview } from "../domain/agent/turn-preview";
import { type ChatKey, parseChatKey } from "../domain/chat/chat-address";
import { isStored, type Settings } from "../domain/config/settings";
import { inboundRecord } from "../domain/history/message-record";
import { observationOf } from "../domain/identity/account-observation";
import type { InboundEvent } from "../domain/inbound/inbound-event";
import { maskInboundEvent } from "../domain/inbound/mask-inbound-event";
import type { NoticeHandOver } from "../domain/notices/notice-book";
import { applyCredentialCues, type CredentialCues } from "../domain/privacy/announced-credential";
import { isLeftOut } from "../domain/privacy/left-out";
import { AlarmClock } from "./alarm-clock";
import { ChatMeta } from "./chat-meta";
import { migrateChatSession } from "./chat-session-schema";
import { ContextReset } from "./context-reset";
import { DreamJournal } from "./dream-journal";
import { type ChatInfo, DreamRunner } from "./dream-runner";
import { Inbox } from "./inbox";
import { LogFlusher } from "./log-flusher";
import { acceptNotice } from "./notice-delivery";
import { Outbox, type OutboxItem } from "./outbox";
import { rewriteWaitingProfiles } from "./profile-rewriter";
import { RecentTurns } from "./recent-turns";
import { firePushReminders } from "./reminder-firing";
import { Reminders } from "./reminders";
import { ReplyPlan } from "./reply-plan";
import { TurnRunner } from "./turn-runner";
import { yieldToEvents } from "./yield-to-events";
import { yieldingModel } from "./yielding-model";

export type EnqueueResult = { status: "accepted" | "duplicate"; eventId: string };

export type TurnStatus = {
  state: "unknown" | "pending" | "replying" | "done";
  replies: { text: string; state: "planned" | "sent" | "failed" }[];
};

export type ChatSessionStats = {
  open: number;
  unflushed: number;
  flushFailures: number;
  recentTurns: number;
  dreamPending: number;
};

/**
 * The alarm an enqueue sets while a drain runs: far enough out that a live drain always
 * comes first, near enough that a row whose drain died is answered within the minute
 * (docs/decisions/0016-drain-watchdog-and-inbox-upkeep.md).
 */
export const DRAIN_WATCHDOG_MS = 30_000;

/**
 * Events triaged in one synchronous stretch, then a waiting enqueue goes first
 * (docs/decisions/0019-word-segments-remembered-triage-in-slices.md).
 */
export const TRIAGE_SLICE = 10;

/**
 * How often the rearm drops expired dedupe records
 * (docs/decisions/0016-drain-watchdog-and-inbox-upkeep.md).
 */
const PRUNE_INTERVAL_MS = 10 * 60 * 1000;
/** The meta key of the senders whose last message announced a credential (announced-credential.ts). */
const CREDENTIAL_CUES = "credentialCues";

export class ChatSession extends DurableObject<Env> {
  readonly #inbox: Inbox;
  readonly #outbox: Outbox;
  readonly #replies: ReplyPlan;
  readonly #recent: RecentTurns;
  readonly #meta: ChatMeta;
  readonly #journal: DreamJournal;
  readonly #dreams: DreamRunner;
  readonly #shortTermContext: ContextReset;
  readonly #turns: TurnRunner;
  readonly #flusher: LogFlusher;
  readonly #alarm: AlarmClock;
  readonly #reminders: Reminders;
  #deps: ChatObjectServices | null = null;
  #relay: ChatRelay | null = null;
  #draining = false;
  /**
   * The credential cues (announced-credential.ts), read from `meta` once per wake and written
   * through: the ACK path reads no storage for them.
   */
  #cues: CredentialCues | null = null;
  /** Local mode only (the door gives none elsewhere): the dev wing's probe (chat-probe.ts). */
  readonly #probe: ChatProbe | null;
  #prunedAt = 0;
  #orphansChecked = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#probe = chatProbe(env);
    const sql = this.#probe?.storage(ctx.storage.sql) ?? ctx.storage.sql;
    this.#inbox = new Inbox(sql);
    this.#outbox = new Outbox(sql);
    this.#replies = new ReplyPlan(sql);
    this.#recent = new RecentTurns(sql);
    this.#meta = new ChatMeta(sql);
    this.#journal = new DreamJournal(sql);
    this.#alarm = new AlarmClock(ctx.storage);
    this.#reminders = new Reminders(ctx.storage, sql);
    this.#dreams = new DreamRunner({
      meta: this.#meta,
      journal: this.#journal,
      outbox: this.#outbox,
      storage: ctx.storage,
    });
    this.#shortTermContext = new ContextReset({
      storage: ctx.storage,
      meta: this.#meta,
      recent: this.#recent,
      outbox: this.#outbox,
      chatKey: () => this.#meta.get<ChatInfo>("chat")?.key ?? null,
      now: () => Date.now(),
    });
    this.#turns = new TurnRunner({
      storage: ctx.storage,
      inbox: this.#inbox,
      outbox: this.#outbox,
      replies: this.#replies,
      recent: this.#recent,
      journal: this.#journal,
      meta: this.#meta,
      reminders: this.#reminders,
      services: () => this.#turnServices(),
    });
    this.#flusher = new LogFlusher({
      outbox: this.#outbox,
      log: () => this.#services().messageLog,
      logger: () => this.#services().logger,
    });
    void ctx.blockConcurrencyWhile(async () => {
      migrateChatSession(ctx.storage);
      await this.#alarm.load();
    });
  }

  /**
   * Persists an inbound event and sets the alarm; returns once the event is durable. One
   * INSERT (deduplicated on event id and message id by the inbox's unique columns) and no
   * read of D1: what the event adds to the log, the registry and the short-term context is
   * decided by the alarm's triage, which has the settings. Credentials are masked first:
   * nothing below ever holds the raw secret.
   */
  async enqueue(received: InboundEvent): Promise<EnqueueResult> {
    const now = Date.now();
    // A value sent right after "密码是" holds no keyword of its own: the sender's cue says so.
    this.#cues ??= this.#meta.get<CredentialCues>(CREDENTIAL_CUES) ?? {};
    const cues = this.#cues;
    const cued = applyCredentialCues(maskInboundEvent(received), cues, now);
    const event = cued.event;
    const needsTurn = event.kind === "message" && event.message !== null && event.message.addressedToBot;
    // A log-only event waits for the flush window (cached settings, or the defaults: timing
    // only). Worked out before the write, so that a broken AKASHA_CONFIG refuses the event
    // instead of storing it without an alarm.
    const due = needsTurn ? now : this.#flusher.windowEnd(peekSettings(this.env), now);
    if (!this.#inbox.accept(event, needsTurn, now)) return { status: "duplicate", eventId: event.eventId };
    if (JSON.stringify(cued.cues) !== JSON.stringify(cues)) {
      this.#meta.set(CREDENTIAL_CUES, cued.cues);
      this.#cues = cued.cues;
    }
    // Not awaited: setAlarm is issued now, in the same output gate as the inbox write. While
    // a drain runs, it takes this row itself (it triages and looks again after every turn,
    // and its rearm sees what is left), so the alarm is only a watchdog for a drain that dies
    // with the isolate: an alarm due now would wake the object again, for nothing, as soon as
    // the drain ends — under load, once per message.
    void this.#alarm.ensureBy(this.#draining ? Math.max(due, now + DRAIN_WATCHDOG_MS) : due);
    return { status: "accepted", eventId: event.eventId };
  }

  /** Where a turn stands and which replies it produced (local dev route, tests, dashboard). */
  async turnStatus(eventId: string): Promise<TurnStatus> {
    const row = this.#inbox.stateOf(eventId);
    if (!row) return { state: "unknown", replies: [] };
    return {
      state: row.state,
      replies: this.#replies.list(row.seq).map((r) => ({ text: r.text, state: r.state })),
    };
  }

  /**
   * Exactly what the next turn of this chat would get for `text` from `sender` — the
   * mandatory block, each recalled item with its scope, kind, sensitivity, score and citation,
   * and the budgeted messages — without running it or changing anything (context preview).
   */
  async preview(request: PreviewRequest): Promise<TurnPreview> {
    const settings = await this.#freshSettings();
    const services = this.#turnServices();
    return previewTurn(request, {
      settings,
      services,
      registry: services.registry,
      recent: this.#recent.list(settings.turn.recentTurns),
      now: Date.now(),
    });
  }

  /**
   * Clears this chat's short-term context for an admin asking from another chat of its
   * domain (`session_manage`): the same reset, cooldown and audit row as `/reset` here.
   * `chat` is this object's own key (its name), recorded if the chat was never seen.
   */
  async resetSession(chat: ChatKey, req: ResetRequest): Promise<ResetResult> {
    if (!this.#meta.get<ChatInfo>("chat")) {
      const address = parseChatKey(chat);
      if (address.ok) this.#meta.set("chat", { key: chat, ...address.value });
    }
    const outcome = await this.#shortTermContext.reset(req);
    // The audit row waits in the outbox: make sure an alarm comes to flush it.
    const settings = await this.#freshSettings();
    await this.#alarm.ensureBy(this.#flusher.windowEnd(settings, Date.now()));
    return outcome;
  }

  /**
   * A notice to the owner for this chat, which must be the owner's own private chat
   * (notice-delivery.ts): queued as a reminder due now; a push goes out with the alarm.
   */
  async deliverNotice(chat: ChatKey, notice: { key: string; text: string }): Promise<NoticeHandOver> {
    const now = Date.now();
    const info = this.#meta.get<ChatInfo>("chat");
    const answer = await acceptNotice({ reminders: this.#reminders, info, now }, chat, notice);
    if (answer === "push") await this.#alarm.ensureBy(now);
    return answer;
  }

  /**
   * `/session forget`: drops what this object still holds of the chat — recent turns, the dream
   * journal, unflushed messages, recall marks and observations — so neither a prompt, a dreaming
   * run nor a later flush brings the forgotten chat back. Called before the D1 rows are deleted.
   */
  async forgetLocal(): Promise<{ recentTurns: number; dreamJournal: number; unflushed: number }> {
    return this.ctx.storage.transactionSync(() => ({
      recentTurns: this.#recent.clear(),
      dreamJournal: this.#journal.clear(),
      unflushed: this.#outbox.dropContent(),
    }));
  }

  /**
   * The platform's HTTP entry, for the dev wing in local mode only: the probe the door gives
   * there (chat-probe.ts) serves it with what a turn reads of this object's storage. Everywhere
   * else there is no probe and every request is a 404.
   */
  override async fetch(request: Request): Promise<Response> {
    if (!this.#probe) return new Response(null, { status: 404 });
    return this.#probe.serve(request, {
      sql: this.ctx.storage.sql,
      recent: (n) => this.#recent.list(n),
      shortTermContext: this.#shortTermContext,
      model: yieldingModel,
    });
  }

  /** Counters for the dashboard and tests: open inbox rows and unflushed rows. */
  async stats(): Promise<ChatSessionStats> {
    return {
      open: this.#inbox.openCount(),
      unflushed: this.#outbox.size(),
      flushFailures: this.#flusher.failures,
      recentTurns: this.#recent.list(200).length,
      dreamPending: this.#journal.stats().pending,
    };
  }

  override async alarm(): Promise<void> {
    // Whichever alarm this is, none is pending any more. A second alarm while a drain runs
    // would interleave turns; the running drain picks up anything enqueued meanwhile and
    // re-arms the alarm when it ends.
    this.#alarm.fired();
    this.#probe?.alarmRan();
    if (this.#draining) return;
    this.#draining = true;
    let settings: Settings | null = null;
    try {
      settings = await this.#freshSettings();
      await this.#drain(settings);
      // Under load several turns share one D1 batch: flush when the window has passed or the
      // batch is full; otherwise the re-armed alarm comes back when the window ends.
      if (this.#flusher.due(settings, Date.now())) await this.#flusher.flush(settings);
      // Dreaming after N waiting turns or an idle period; then whatever arrived meanwhile.
      await this.#dreams.runIfDue(settings, this.#services());
      // Whatever arrived meanwhile (the drain triages first: new rows are untriaged).
      await this.#drain(settings);
      // The chat model's rewrites of the profiles the turns read, after the turns' replies.
      const chat = this.#meta.get<ChatInfo>("chat")?.key ?? null;
      await rewriteWaitingProfiles(
        { outbox: this.#outbox, storage: this.ctx.storage },
        chat,
        settings,
        this.#services(),
      );
      // Reminders due now (OneBot pushes; QQ's wait for the next message, turn-runner.ts).
      await firePushReminders(
        {
          storage: this.ctx.storage,
          reminders: this.#reminders,
          outbox: this.#outbox,
          chatKey: () => this.#meta.get<ChatInfo>("chat")?.key ?? null,
          services: () => this.#services(),
        },
        settings,
      );
    } catch (e) {
      this.#services().logger.error("chat alarm failed", { error: String(e) });
    } finally {
      this.#draining = false;
      await this.#rearm(settings);
    }
  }

  #services(): ChatObjectServices {
    this.#deps ??= chatObjectServices.create(this.env);
    return this.#deps;
  }

  /**
   * Settings for this alarm run or request, shared by everything the run does: the isolate's
   * cached copy (D1 at most once per TTL, at once after a save in this isolate).
   */
  #freshSettings(): Promise<Settings> {
    return this.#services().settings.current();
  }

  /**
   * What accepted events add besides their inbox row, in arrival order: the registry row,
   * the message-log row (stored chats only), the account observation, a recall mark, and for
   * unaddressed chatter of a stored chat the short-term context and the dream journal. A row
   * needing no turn becomes its dedupe record. Each event is its own transaction. Between
   * slices of TRIAGE_SLICE events the object's event loop is let in: under load a drain finds
   * hundreds of untriaged rows, and each costs its tokens, its masking and its transaction, so
   * without these points an `enqueue` of this chat would wait for all of them.
   */
  async #triage(settings: Settings): Promise<void> {
    for (let slice = 0; ; slice++) {
      if (slice > 0) await yieldToEvents();
      const batch = this.#inbox.untriaged(TRIAGE_SLICE);
      if (batch.length === 0) return;
      for (const { seq, needsTurn, receivedAt, event } of batch) {
        const stored = isStored(settings, event.chat.key, event.chat.targetType);
        // A left-out person (privacy.doNotRecord) leaves no row here: not in the log, not seen.
        const leftOut = isLeftOut(settings, event.sender?.account);
        this.ctx.storage.transactionSync(() => {
          if (!this.#meta.get<ChatInfo>("chat")) this.#meta.set("chat", chatInfo(event));
          for (const item of inboundRows(event, stored, leftOut, receivedAt))
            this.#outbox.push(item, receivedAt);
          // Unaddressed chatter of a followed group is context for the next addressed turn.
          if (!needsTurn && stored && !leftOut && event.kind === "message" && event.message) {
            const { text, ts } = event.message;
            this.#recent.append({ role: "user", name: event.sender?.displayName ?? null, text, ts });
            this.#turns.journalUser(event, text);
          }
          this.#inbox.markTriaged(seq, needsTurn, Date.now());
        });
      }
    }
  }

  /** The one bag a turn runs with: the door's services plus this object's context control and relay. */
  #turnServices(): ChatTurnServices {
    const services = this.#services();
    // A relayed message waits in this object's outbox like every other row of the log.
    this.#relay ??= services.relayLoggingTo((record) =>
      this.#outbox.push({ kind: "message", body: record }, Date.now()),
    );
    return {
      ...services,
      model: yieldingModel(services.model),
      shortTermContext: this.#shortTermContext,
      relay: this.#relay,
      reminders: this.#reminders,
    };
  }

  async #drain(settings: Settings): Promise<void> {
    for (;;) {
      await this.#triage(settings);
      const row = this.#inbox.oldestOpen();
      // Strict order: a row waiting out a backoff holds back the rows behind it.
      if (!row || row.notBefore > Date.now()) return;
      // Between turns, let a waiting enqueue of this object in: a turn's synchronous work
      // (prompt building, the offline model) must not hold an ACK behind it. Rows arriving
      // now come after `row`, so its turn is still the next one.
      await yieldToEvents();
      if (!(await this.#turns.advance(row, settings))) return;
      if (this.#outbox.size() >= settings.outbox.flushBatchRows) await this.#flusher.flush(settings);
    }
  }

  /**
   * Dedupe records are dropped once they are past the retention; their reply plans with them.
   * Both statements walk every done row, so they run once per PRUNE_INTERVAL_MS rather than
   * after every drain (a record kept a little longer only dedupes a little longer).
   */
  #prune(now: number): void {
    if (now - this.#prunedAt < PRUNE_INTERVAL_MS) return;
    this.#prunedAt = now;
    if (this.#inbox.prune(now) > 0 || !this.#orphansChecked) this.#replies.pruneOrphans();
    this.#reminders.prune(now);
    this.#orphansChecked = true;
  }

  /**
   * After a drain: the earliest of open work, dreaming, unflushed rows and the next push
   * reminder decides the next alarm (an object has one alarm; every kind of due work shares it).
   */
  async #rearm(settings: Settings | null): Promise<void> {
    const now = Date.now();
    this.#prune(now);
    const open = this.#inbox.oldestOpen();
    const untriaged = this.#inbox.oldestUntriaged();
    const candidates = [
      open ? Math.max(now, open.notBefore) : null,
      // An event that needs a turn and arrived after the drain's last look: at once.
      untriaged?.needsTurn ? now : null,
      untriaged !== null ? this.#flusher.windowEnd(settings ?? peekSettings(this.env), now) : null,
      settings ? this.#dreams.dueAt(settings, now) : null,
      this.#flusher.nextAt(settings, now),
      // The next reminder to push: an alarm set for it survives restarts and deploys.
      this.#reminders.nextPushAt(),
    ].filter((t): t is number => t !== null);
    if (candidates.length > 0) await this.#alarm.ensureBy(Math.max(now, Math.min(...candidates)));
  }
}

function chatInfo(event: InboundEvent): ChatInfo {
  return {
    key: event.chat.key,
    channel: event.chat.channel,
    targetType: event.chat.targetType,
    targetId: event.chat.targetId,
  };
}

/** The rows an accepted event adds to the outbox: registry, message log, identity, recall. */
function inboundRows(event: InboundEvent, stored: boolean, leftOut: boolean, now: number): OutboxItem[] {
  const items: OutboxItem[] = [{ kind: "chat", body: chatTouch(event, stored, now) }];
  const record = stored && !leftOut ? inboundRecord(event) : null;
  if (record) items.push({ kind: "message", body: record });
  // Who was seen where (identity); flushed with the rest, so it costs the ACK one row.
  const observation = leftOut ? null : observationOf(event, now);
  if (observation) items.push({ kind: "observation", body: observation });
  if (stored && event.kind === "message_deleted" && event.deletedMessageId) {
    const recall = { transport: event.transport, chatKey: event.chat.key, messageId: event.deletedMessageId };
    items.push({ kind: "recall", body: recall });
  }
  return items;
}

function chatTouch(event: InboundEvent, followed: boolean, now: number) {
  return {
    chatKey: event.chat.key,
    channel: event.chat.channel,
    targetType: event.chat.targetType,
    targetId: event.chat.targetId,
    seenAt: now,
    followed,
    ...(event.chatTitle ? { title: event.chatTitle } : {}),
    ...(event.kind === "bot_added" ? { botPresent: true } : {}),
    ...(event.kind === "bot_removed" ? { botPresent: false } : {}),
    ...(event.kind === "push_enabled" ? { pushEnabled: true } : {}),
    ...(event.kind === "push_disabled" ? { pushEnabled: false } : {}),
  };
}
