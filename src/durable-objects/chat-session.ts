/**
 * ChatSession: one Durable Object per chat key. It is the only writer of its chat's turn
 * state, so two messages of one chat never race. `enqueue` only persists and sets the alarm;
 * the alarm drains the inbox oldest first, one turn at a time, sends the replies and flushes
 * buffered rows to D1. Every step is recorded before the next starts, so a retried or
 * restarted alarm resumes where it stopped and never sends a reply twice.
 */
import { type ChatProbe, chatProbe, peekSettings } from "../composition/chat-object/chat-object-door";
import type { ResetRequest, ResetResult } from "../domain/agent/short-term-context";
import { type PreviewRequest, previewTurn, type TurnPreview } from "../domain/agent/turn-preview";
import { type ChatKey, parseChatKey } from "../domain/chat/chat-address";
import type { Settings } from "../domain/config/settings";
import type { InboundEvent } from "../domain/inbound/inbound-event";
import { maskInboundEvent } from "../domain/inbound/mask-inbound-event";
import type { NoticeHandOver } from "../domain/notices/notice-book";
import { applyCredentialCues } from "../domain/privacy/announced-credential";
import { DRAIN_WATCHDOG_MS, nextAlarmAt } from "./alarm-schedule";
import { ChatLogRpc } from "./chat-log-rpc";
import { type ChatParts, chatParts } from "./chat-parts";
import { migrateChatSession } from "./chat-session-schema";
import { CredentialCueBook } from "./credential-cue-book";
import type { ChatInfo } from "./dream-runner";
import { heldUntil, settleHeld } from "./held-values";
import { drainInbox } from "./inbox-drain";
import { InboxUpkeep } from "./inbox-upkeep";
import { flushLogCountsSoon } from "./log-counts-alarm";
import { acceptNotice } from "./notice-delivery";
import { rewriteWaitingProfiles } from "./profile-rewriter";
import { firePushReminders } from "./reminder-firing";
import { yieldingModel } from "./yielding-model";

export type EnqueueResult = { status: "accepted" | "duplicate"; eventId: string };

export type TurnStatus = {
  state: "unknown" | "pending" | "replying" | "done";
  replies: { text: string; state: "planned" | "sent" | "failed" }[];
};

/** What a forget removed from the chat's object (its log counted like D1's rows). */
export type LocalForget = {
  recentTurns: number;
  dreamJournal: number;
  unflushed: number;
  /** Chatter accepted but not yet triaged, values held for their naming among it. */
  untriaged: number;
  log: { messages: number; windows: number; sessions: number };
};

export type ChatSessionStats = {
  open: number;
  unflushed: number;
  flushFailures: number;
  recentTurns: number;
  dreamPending: number;
};

/**
 * The log's methods (logSearch, appendLog, importLog, …) come from ChatLogRpc (chat-log-rpc.ts),
 * served over RPC as this class's own.
 */
export class ChatSession extends ChatLogRpc {
  readonly #parts: ChatParts;
  readonly #cues: CredentialCueBook;
  readonly #upkeep: InboxUpkeep;
  #draining = false;
  /** Local mode only (the door gives none elsewhere): the dev wing's probe (chat-probe.ts). */
  readonly #probe: ChatProbe | null;

  constructor(ctx: DurableObjectState, env: Env) {
    const probe = chatProbe(env);
    const parts = chatParts(env, ctx.storage, probe?.storage(ctx.storage.sql) ?? ctx.storage.sql);
    super(ctx, env, parts);
    this.#probe = probe;
    this.#parts = parts;
    this.#cues = new CredentialCueBook(this.#parts.meta);
    this.#upkeep = new InboxUpkeep(this.#parts);
    void ctx.blockConcurrencyWhile(async () => {
      migrateChatSession(ctx.storage);
      await this.#parts.alarm.load();
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
    const cued = applyCredentialCues(maskInboundEvent(received), this.#cues.current(), now);
    const event = cued.event;
    const needsTurn = event.kind === "message" && event.message !== null && event.message.addressedToBot;
    // A log-only event waits for the flush window (cached settings, or the defaults: timing
    // only). Worked out before the write, so that a broken AKASHA_CONFIG refuses the event
    // instead of storing it without an alarm.
    const due = needsTurn ? now : this.#parts.flusher.windowEnd(peekSettings(this.env), now);
    if (!this.#parts.inbox.accept(event, needsTurn, now, heldUntil(event, now)))
      return { status: "duplicate", eventId: event.eventId };
    // A value sent alone waits for its sender to say what it was (held-values.ts).
    settleHeld(this.#parts.inbox, event, now);
    this.#cues.keep(cued.cues);
    // Not awaited: setAlarm is issued now, in the same output gate as the inbox write. While
    // a drain runs, it takes this row itself (it triages and looks again after every turn,
    // and its rearm sees what is left), so the alarm is only a watchdog for a drain that dies
    // with the isolate: an alarm due now would wake the object again, for nothing, as soon as
    // the drain ends — under load, once per message.
    void this.#parts.alarm.ensureBy(this.#draining ? Math.max(due, now + DRAIN_WATCHDOG_MS) : due);
    return { status: "accepted", eventId: event.eventId };
  }

  /** Where a turn stands and which replies it produced (local dev route, tests, dashboard). */
  async turnStatus(eventId: string): Promise<TurnStatus> {
    const row = this.#parts.inbox.stateOf(eventId);
    if (!row) return { state: "unknown", replies: [] };
    return {
      state: row.state,
      replies: this.#parts.replies.list(row.seq).map((r) => ({ text: r.text, state: r.state })),
    };
  }

  /**
   * Exactly what the next turn of this chat would get for `text` from `sender` — the
   * mandatory block, each recalled item with its scope, kind, sensitivity, score and citation,
   * and the budgeted messages — without running it or changing anything (context preview).
   */
  async preview(request: PreviewRequest): Promise<TurnPreview> {
    const settings = await this.#freshSettings();
    const services = this.#parts.turnServices();
    return previewTurn(request, {
      settings,
      services,
      registry: services.registry,
      recent: this.#parts.recent.list(settings.turn.recentTurns),
      now: Date.now(),
    });
  }

  /**
   * Clears this chat's short-term context for an admin asking from another chat of its
   * domain (`session_manage`): the same reset, cooldown and audit row as `/reset` here.
   * `chat` is this object's own key (its name), recorded if the chat was never seen.
   */
  async resetSession(chat: ChatKey, req: ResetRequest): Promise<ResetResult> {
    if (!this.#parts.meta.get<ChatInfo>("chat")) {
      const address = parseChatKey(chat);
      if (address.ok) this.#parts.meta.set("chat", { key: chat, ...address.value });
    }
    const outcome = await this.#parts.shortTermContext.reset(req);
    // The audit row waits in the outbox: make sure an alarm comes to flush it.
    const settings = await this.#freshSettings();
    await this.#parts.alarm.ensureBy(this.#parts.flusher.windowEnd(settings, Date.now()));
    return outcome;
  }

  /**
   * A notice to the owner for this chat, which must be the owner's own private chat
   * (notice-delivery.ts): queued as a reminder due now; a push goes out with the alarm.
   */
  async deliverNotice(chat: ChatKey, notice: { key: string; text: string }): Promise<NoticeHandOver> {
    const now = Date.now();
    const info = this.#parts.meta.get<ChatInfo>("chat");
    const answer = await acceptNotice({ reminders: this.#parts.reminders, info, now }, chat, notice);
    if (answer === "push") await this.#parts.alarm.ensureBy(now);
    return answer;
  }

  /**
   * `/session forget`: drops what this object still holds of the chat — recent turns, the dream
   * journal, its message log, unflushed messages, recall marks and observations, chatter not yet
   * triaged (a value held for its naming) — so neither a prompt, a dreaming run, a later triage
   * nor a later flush brings the forgotten chat back. Called before the D1 rows are deleted.
   */
  async forgetLocal(): Promise<LocalForget> {
    const dropped = this.ctx.storage.transactionSync(() => ({
      recentTurns: this.#parts.recent.clear(),
      dreamJournal: this.#parts.journal.clear(),
      unflushed: this.#parts.outbox.dropContent(),
      untriaged: this.#parts.inbox.dropChatter(Date.now()),
      log: this.#parts.log.clear(),
    }));
    await flushLogCountsSoon(this.#parts);
    return dropped;
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
      recent: (n) => this.#parts.recent.list(n),
      shortTermContext: this.#parts.shortTermContext,
      model: yieldingModel,
      history: (bindings) => this.#parts.turnHistoryOver(bindings),
    });
  }

  /** Counters for the dashboard and tests: open inbox rows and unflushed rows. */
  async stats(): Promise<ChatSessionStats> {
    return {
      open: this.#parts.inbox.openCount(),
      unflushed: this.#parts.outbox.size(),
      flushFailures: this.#parts.flusher.failures,
      recentTurns: this.#parts.recent.list(200).length,
      dreamPending: this.#parts.journal.stats().pending,
    };
  }

  override async alarm(): Promise<void> {
    // Whichever alarm this is, none is pending any more. A second alarm while a drain runs
    // would interleave turns; the running drain picks up anything enqueued meanwhile and
    // re-arms the alarm when it ends.
    this.#parts.alarm.fired();
    this.#probe?.alarmRan();
    if (this.#draining) return;
    this.#draining = true;
    let settings: Settings | null = null;
    const { flusher, dreams, outbox, reminders, services, chatKey } = this.#parts;
    const storage = this.ctx.storage;
    try {
      settings = await this.#freshSettings();
      await drainInbox(this.#parts, storage, settings);
      // Under load several turns share one D1 batch: flush when the window has passed or the
      // batch is full; otherwise the re-armed alarm comes back when the window ends.
      if (flusher.due(settings, Date.now())) await flusher.flush(settings);
      // Dreaming after N waiting turns or an idle period; then whatever arrived meanwhile.
      await dreams.runIfDue(settings, services());
      // Whatever arrived meanwhile (the drain triages first: new rows are untriaged).
      await drainInbox(this.#parts, storage, settings);
      // The chat model's rewrites of the profiles the turns read, after the turns' replies.
      await rewriteWaitingProfiles({ outbox, storage }, chatKey(), settings, services());
      // Reminders due now (OneBot pushes; QQ's wait for the next message, turn-runner.ts).
      await firePushReminders({ storage, reminders, outbox, chatKey, services }, settings);
      // The object's log loses what is past the chat's retention, once a day (log-retention.ts).
      await this.#parts.logRetention.runIfDue(settings, Date.now());
    } catch (e) {
      services().logger.error("chat alarm failed", { error: String(e) });
    } finally {
      this.#draining = false;
      await this.#rearm(settings);
    }
  }

  /**
   * Settings for this alarm run or request, shared by everything the run does: the isolate's
   * cached copy (D1 at most once per TTL, at once after a save in this isolate).
   */
  #freshSettings(): Promise<Settings> {
    return this.#parts.services().settings.current();
  }

  /** After a drain: prune, then the earliest due work of any kind sets the one alarm. */
  async #rearm(settings: Settings | null): Promise<void> {
    const now = Date.now();
    this.#upkeep.prune(now);
    const at = nextAlarmAt(this.#parts, settings, () => peekSettings(this.env), now);
    if (at !== null) await this.#parts.alarm.ensureBy(at);
  }
}
