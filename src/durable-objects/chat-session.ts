/**
 * ChatSession: one Durable Object per chat key. It is the only writer of its chat's turn
 * state, so two messages of one chat never race. `enqueue` only persists and sets the alarm;
 * the alarm drains the inbox oldest first, one turn at a time, sends the replies and flushes
 * buffered rows to D1. Every step is recorded before the next starts, so a retried or
 * restarted alarm resumes where it stopped and never sends a reply twice.
 */
import { DurableObject } from "cloudflare:workers";
import type { UsageRecord } from "../domain/agent/chat-model";
import { runTurn } from "../domain/agent/turn";
import type { TurnContext } from "../domain/agent/turn-context";
import { type PreviewRequest, previewTurn, type TurnPreview } from "../domain/agent/turn-preview";
import type { TurnPorts } from "../domain/agent/turn-services";
import { isStored, type Settings } from "../domain/config/settings";
import { inboundRecord, outboundRecord } from "../domain/history/message-record";
import { observationOf } from "../domain/identity/account-observation";
import type { InboundEvent } from "../domain/inbound/inbound-event";
import { explicitSensitivity } from "../domain/memory/sensitivity";
import type { AuditEvent } from "../domain/shared/audit";
import { loadSettings } from "../workers/settings-loader";
import { ChatMeta } from "./chat-meta";
import { migrateChatSession } from "./chat-session-schema";
import { type ChatSessionDeps, chatSessionServices } from "./chat-session-services";
import { DreamJournal } from "./dream-journal";
import { type ChatInfo, DreamRunner } from "./dream-runner";
import { Inbox, type InboxRow } from "./inbox";
import { Outbox } from "./outbox";
import { RecentTurns } from "./recent-turns";
import { ReplyPlan } from "./reply-plan";
import { DoSessionControl } from "./session-control";

export type EnqueueResult = { status: "accepted" | "duplicate"; eventId: string };

export type TurnStatus = {
  state: "unknown" | "pending" | "replying" | "done";
  replies: { text: string; state: "planned" | "sent" | "failed" }[];
};

/** A model failure is retried this many times (with backoff) before the bot apologizes. */
const MODEL_ATTEMPTS = 3;
/** A retryable send failure is retried this many times before the reply is given up. */
const SEND_ATTEMPTS = 5;
const FALLBACK_REPLY = "抱歉，我现在有点忙，稍后再试试吧。";

export class ChatSession extends DurableObject<Env> {
  readonly #inbox: Inbox;
  readonly #outbox: Outbox;
  readonly #replies: ReplyPlan;
  readonly #recent: RecentTurns;
  readonly #meta: ChatMeta;
  readonly #journal: DreamJournal;
  readonly #dreams: DreamRunner;
  readonly #session: DoSessionControl;
  #deps: ChatSessionDeps | null = null;
  #draining = false;
  #lastFlushAt = 0;
  #flushFailures = 0;
  /**
   * The alarm this object has set, mirrored in memory so that enqueue can decide without an
   * awaited getAlarm(): with no await between the inbox write and setAlarm, both commit as
   * one durable write before the webhook is answered.
   */
  #alarmAt: number | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    this.#inbox = new Inbox(sql);
    this.#outbox = new Outbox(sql);
    this.#replies = new ReplyPlan(sql);
    this.#recent = new RecentTurns(sql);
    this.#meta = new ChatMeta(sql);
    this.#journal = new DreamJournal(sql);
    this.#dreams = new DreamRunner({
      meta: this.#meta,
      journal: this.#journal,
      outbox: this.#outbox,
      storage: ctx.storage,
    });
    this.#session = new DoSessionControl({
      storage: ctx.storage,
      meta: this.#meta,
      recent: this.#recent,
      outbox: this.#outbox,
      chatKey: () => this.#meta.get<ChatInfo>("chat")?.key ?? null,
      now: () => Date.now(),
    });
    void ctx.blockConcurrencyWhile(async () => {
      migrateChatSession(ctx.storage);
      this.#alarmAt = await ctx.storage.getAlarm();
    });
  }

  /**
   * Persists an inbound event (deduplicated on event id and message id), buffers its
   * message-log row and sets the alarm. Returns once the event is durable; no slow work here.
   */
  async enqueue(event: InboundEvent): Promise<EnqueueResult> {
    const settings = await loadSettings(this.env);
    const now = Date.now();
    const messageId = event.kind === "message" ? (event.message?.id ?? null) : null;
    const needsTurn = event.kind === "message" && event.message !== null && event.message.addressedToBot;
    const stored = isStored(settings, event.chat.key, event.chat.targetType);
    const accepted = this.ctx.storage.transactionSync(() => {
      if (this.#inbox.has(event.eventId, messageId)) return false;
      if (!this.#meta.get<ChatInfo>("chat")) this.#meta.set("chat", chatInfo(event));
      this.#inbox.add(event, needsTurn, now);
      this.#outbox.push({ kind: "chat", body: chatTouch(event, stored, now) }, now);
      const record = stored ? inboundRecord(event) : null;
      if (record) this.#outbox.push({ kind: "message", body: record }, now);
      // Who was seen where (identity); flushed with the rest, so it costs the ACK one row.
      const observation = observationOf(event, now);
      if (observation) this.#outbox.push({ kind: "observation", body: observation }, now);
      if (stored && event.kind === "message_deleted" && event.deletedMessageId) {
        this.#outbox.push(
          {
            kind: "recall",
            body: { transport: event.transport, chatKey: event.chat.key, messageId: event.deletedMessageId },
          },
          now,
        );
      }
      // Unaddressed chatter of a followed group is context for the next addressed turn.
      if (!needsTurn && stored && event.kind === "message" && event.message) {
        this.#recent.append({
          role: "user",
          name: event.sender?.displayName ?? null,
          text: event.message.text,
          ts: event.message.ts,
        });
        this.#journalUser(event, event.message.text);
      }
      return true;
    });
    if (!accepted) return { status: "duplicate", eventId: event.eventId };
    this.#scheduleAlarm(settings, now, needsTurn);
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
    const settings = await loadSettings(this.env);
    const services = this.#turnServices();
    return previewTurn(request, {
      settings,
      services,
      registry: services.registry,
      recent: this.#recent.list(settings.turn.recentTurns),
      now: Date.now(),
    });
  }

  /** Counters for the dashboard and tests: open inbox rows and unflushed rows. */
  async stats(): Promise<{
    open: number;
    unflushed: number;
    flushFailures: number;
    recentTurns: number;
    dreamPending: number;
  }> {
    return {
      open: this.#inbox.openCount(),
      unflushed: this.#outbox.size(),
      flushFailures: this.#flushFailures,
      recentTurns: this.#recent.list(200).length,
      dreamPending: this.#journal.stats().pending,
    };
  }

  override async alarm(): Promise<void> {
    // A second alarm while a drain is running would interleave turns; the running drain
    // picks up anything enqueued meanwhile and re-arms the alarm when it ends.
    // Whichever alarm this is, none is pending any more.
    this.#alarmAt = null;
    if (this.#draining) return;
    this.#draining = true;
    let settings: Settings | null = null;
    try {
      settings = await loadSettings(this.env);
      await this.#drain(settings);
      // Under load several turns share one D1 batch: flush when the window has passed or the
      // batch is full; otherwise the re-armed alarm comes back when the window ends.
      if (this.#flushDue(settings)) await this.#flush(settings);
      // Dreaming after N waiting turns or an idle period; then whatever arrived meanwhile.
      await this.#dreams.runIfDue(settings, this.#services());
      if (this.#inbox.oldestOpen()) await this.#drain(settings);
    } catch (e) {
      this.#services().logger.error("chat alarm failed", { error: String(e) });
    } finally {
      this.#draining = false;
      await this.#rearm(settings);
    }
  }

  #services(): ChatSessionDeps {
    this.#deps ??= chatSessionServices.create(this.env);
    return this.#deps;
  }

  #turnServices(): TurnPorts & ChatSessionDeps {
    return { ...this.#services(), session: this.#session };
  }

  /** A user's message waiting for dreaming (stored chats only; commands are not journaled). */
  #journalUser(event: InboundEvent, text: string): void {
    this.#journal.append({
      role: "user",
      name: event.sender?.displayName ?? null,
      account: event.sender?.account ?? null,
      unionId: event.sender?.unionId ?? null,
      messageId: event.message?.id ?? null,
      text,
      ts: event.message?.ts ?? Date.now(),
      explicitSensitivity: explicitSensitivity(text),
    });
  }

  async #drain(settings: Settings): Promise<void> {
    for (;;) {
      const row = this.#inbox.oldestOpen();
      // Strict order: a row waiting out a backoff holds back the rows behind it.
      if (!row || row.notBefore > Date.now()) return;
      const finished = await this.#process(row, settings);
      if (!finished) return;
      if (this.#outbox.size() >= settings.outbox.flushBatchRows) await this.#flush(settings);
    }
  }

  /** Advances one inbox row as far as it can go. False when it must wait (backoff). */
  async #process(row: InboxRow, settings: Settings): Promise<boolean> {
    try {
      if (row.state === "pending" && !(await this.#decide(row, settings))) return false;
      return await this.#send(row, settings);
    } catch (e) {
      // A bug or an adapter that threw: back off like a failed model call, then give up on
      // the row so that one poisoned event cannot block its chat for ever.
      const giveUp = row.attempts + 1 >= MODEL_ATTEMPTS;
      this.#services().logger.error("turn step threw", {
        chat: row.event.chat.key,
        giveUp,
        error: String(e),
      });
      if (giveUp) this.#inbox.setState(row.seq, "done", Date.now());
      else this.#inbox.backOff(row.seq, Date.now() + 2000 * 2 ** row.attempts);
      return giveUp;
    }
  }

  /** Runs the turn and persists its plan: replies, usage, short-term context, all at once. */
  async #decide(row: InboxRow, settings: Settings): Promise<boolean> {
    const services = this.#services();
    const event = row.event;
    const now = Date.now();
    const identity = event.sender
      ? await services.identity.resolve({
          account: event.sender.account,
          chatKey: event.chat.key,
          unionId: event.sender.unionId,
        })
      : null;
    const ctx: TurnContext = {
      event,
      chat: event.chat,
      sender: event.sender,
      identity,
      text: event.message?.text ?? "",
      recent: this.#recent.list(settings.turn.recentTurns),
      settings,
      now,
    };
    const result = await runTurn(ctx, this.#turnServices(), services.registry);
    const usage = result.ok ? result.value.usage : result.error.usage;
    const audit = result.ok ? result.value.audit : result.error.audit;
    let replies: readonly string[];
    if (result.ok) {
      replies = result.value.replies;
    } else if (row.attempts + 1 < MODEL_ATTEMPTS && result.error.error.kind !== "config") {
      services.logger.warn("model failed; will retry", {
        chat: event.chat.key,
        kind: result.error.error.kind,
      });
      this.ctx.storage.transactionSync(() => {
        this.#pushUsage(row, usage, now);
        this.#pushAudit(row, audit, now);
        this.#inbox.backOff(row.seq, Date.now() + 2000 * 2 ** row.attempts);
      });
      return false;
    } else {
      services.logger.error("model failed; giving up", {
        chat: event.chat.key,
        kind: result.error.error.kind,
      });
      replies = [FALLBACK_REPLY];
    }
    const reset = result.ok && result.value.contextReset;
    const answeredByModel = !result.ok || result.value.command === null;
    const journaled = answeredByModel && isStored(settings, event.chat.key, event.chat.targetType);
    this.ctx.storage.transactionSync(() => {
      this.#pushUsage(row, usage, now);
      this.#pushAudit(row, audit, now);
      // A reset turn starts the new short-term context empty.
      if (!reset) {
        this.#recent.append({
          role: "user",
          name: event.sender?.displayName ?? null,
          text: ctx.text,
          ts: event.message?.ts ?? now,
        });
        for (const text of replies)
          this.#recent.append({ role: "assistant", name: null, text, ts: Date.now() });
      }
      if (journaled) {
        this.#journalUser(event, ctx.text);
        if (result.ok) {
          for (const text of replies)
            this.#journal.append({
              role: "assistant",
              name: null,
              account: null,
              unionId: null,
              messageId: null,
              text,
              ts: Date.now(),
              explicitSensitivity: null,
            });
        }
      }
      this.#replies.plan(row.seq, replies);
      this.#inbox.setState(row.seq, "replying", now);
    });
    return true;
  }

  /** Sends every planned reply not yet sent, in order, then marks the row done. */
  async #send(row: InboxRow, settings: Settings): Promise<boolean> {
    const services = this.#services();
    const event = row.event;
    const outbound = services.outbound(event.transport);
    const stored = isStored(settings, event.chat.key, event.chat.targetType);
    for (const reply of this.#replies.list(row.seq)) {
      if (reply.state !== "planned") continue;
      const sent = await outbound.send({
        chat: event.chat,
        text: reply.text,
        reply: event.reply,
        seq: reply.idx + 1,
      });
      const now = Date.now();
      if (sent.ok) {
        this.ctx.storage.transactionSync(() => {
          this.#replies.markSent(row.seq, reply.idx, sent.value.messageId, now);
          if (stored) {
            const record = outboundRecord({
              transport: event.transport,
              chatKey: event.chat.key,
              messageId: sent.value.messageId ?? `out:${event.eventId}:${reply.idx + 1}`,
              ts: sent.value.ts,
              text: reply.text,
              botName: services.botName,
            });
            this.#outbox.push({ kind: "message", body: record }, now);
          }
        });
      } else if (sent.error.retryable && reply.attempts + 1 < SEND_ATTEMPTS) {
        services.logger.warn("send failed; will retry", {
          chat: event.chat.key,
          kind: sent.error.kind,
          code: sent.error.code,
        });
        this.ctx.storage.transactionSync(() => {
          this.#replies.markAttempt(row.seq, reply.idx, sent.error.message);
          this.#inbox.backOff(row.seq, now + 1000 * 2 ** reply.attempts);
        });
        return false;
      } else {
        services.logger.error("send failed; reply dropped", {
          chat: event.chat.key,
          kind: sent.error.kind,
          code: sent.error.code,
        });
        this.#replies.markFailed(row.seq, reply.idx, sent.error.message);
      }
    }
    this.#inbox.setState(row.seq, "done", Date.now());
    return true;
  }

  #pushUsage(row: InboxRow, usage: readonly UsageRecord[], now: number): void {
    usage.forEach((u, i) => {
      this.#outbox.push(
        {
          kind: "usage",
          body: { ...u, dedupeKey: `${row.event.chat.key}:${row.eventId}:${row.attempts}:${i}` },
        },
        now,
      );
    });
  }

  /** Audit records of a turn attempt go out with its other rows; the key makes a retried flush a no-op. */
  #pushAudit(row: InboxRow, audit: readonly AuditEvent[], now: number): void {
    audit.forEach((a, i) => {
      this.#outbox.push(
        {
          kind: "audit",
          body: {
            dedupeKey: `${row.event.chat.key}:${row.eventId}:${row.attempts}:audit:${i}`,
            at: a.at,
            actor: a.actor,
            action: a.action,
            chatKey: a.chatKey,
            target: a.target,
            detail: { outcome: a.outcome, ...a.detail },
          },
        },
        now,
      );
    });
  }

  #flushDue(settings: Settings): boolean {
    if (this.#flushFailures > 0) return true;
    return (
      this.#outbox.size() >= settings.outbox.flushBatchRows ||
      Date.now() >= this.#lastFlushAt + settings.outbox.flushIntervalMs
    );
  }

  /** Writes buffered rows to D1 in batches; on failure keeps them and backs off. */
  async #flush(settings: Settings): Promise<void> {
    for (;;) {
      const taken = this.#outbox.take(settings.outbox.flushBatchRows);
      if (!taken) return;
      try {
        await this.#services().messageLog.flush(taken.batch);
      } catch (e) {
        this.#flushFailures++;
        this.#services().logger.error("flush failed; rows kept", {
          rows: taken.rows,
          failures: this.#flushFailures,
          error: String(e),
        });
        return;
      }
      this.#outbox.remove(taken.upTo);
      this.#lastFlushAt = Date.now();
      this.#flushFailures = 0;
    }
  }

  /** After enqueue: a turn runs now; a log-only event waits for the next flush window. */
  #scheduleAlarm(settings: Settings, now: number, turnNow: boolean): void {
    const at = turnNow ? now : Math.max(now, this.#lastFlushAt + settings.outbox.flushIntervalMs);
    if (this.#alarmAt !== null && this.#alarmAt <= at) return;
    this.#alarmAt = at;
    void this.ctx.storage.setAlarm(at);
  }

  /** After a drain: the earliest of open work and unflushed rows decides the next alarm. */
  async #rearm(settings: Settings | null): Promise<void> {
    const now = Date.now();
    this.#inbox.prune(now);
    this.#replies.pruneOrphans();
    const candidates: number[] = [];
    const open = this.#inbox.oldestOpen();
    if (open) candidates.push(Math.max(now, open.notBefore));
    const dreamAt = settings ? this.#dreams.dueAt(settings, now) : null;
    if (dreamAt !== null) candidates.push(Math.max(now, dreamAt));
    if (this.#outbox.size() > 0) {
      const interval = settings?.outbox.flushIntervalMs ?? 1000;
      const backoff = this.#flushFailures > 0 ? Math.min(60_000, 1000 * 2 ** this.#flushFailures) : 0;
      candidates.push(Math.max(now + backoff, this.#lastFlushAt + interval));
    }
    if (candidates.length === 0) return;
    const at = Math.min(...candidates);
    // An enqueue during the drain may already have asked for an earlier alarm.
    if (this.#alarmAt !== null && this.#alarmAt <= at) return;
    this.#alarmAt = at;
    await this.ctx.storage.setAlarm(at);
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

function chatTouch(event: InboundEvent, followed: boolean, now: number) {
  return {
    chatKey: event.chat.key,
    channel: event.chat.channel,
    targetType: event.chat.targetType,
    targetId: event.chat.targetId,
    seenAt: now,
    followed,
    ...(event.kind === "bot_added" ? { botPresent: true } : {}),
    ...(event.kind === "bot_removed" ? { botPresent: false } : {}),
    ...(event.kind === "push_enabled" ? { pushEnabled: true } : {}),
    ...(event.kind === "push_disabled" ? { pushEnabled: false } : {}),
  };
}
