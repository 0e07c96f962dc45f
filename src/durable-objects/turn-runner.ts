/**
 * Advances one inbox row of the chat: decide (run the turn, persist its plan, usage, audit,
 * short-term context and dreaming journal in one transaction), then send the planned replies
 * one by one, each marked sent right after the platform accepted it. A row that must wait
 * (model or send failure with retries left) is backed off; the alarm comes back for it.
 */

import type { ChatTurnServices } from "../composition/chat-object/chat-object-door";
import { followNoticeFor } from "../domain/agent/follow-notice";
import { runTurn } from "../domain/agent/turn";
import { turnContextOf } from "../domain/agent/turn-context-of";
import { isOneToOne } from "../domain/chat/chat-address";
import { isStored, type Settings } from "../domain/config/settings";
import { outboundRecord } from "../domain/history/message-record";
import type { InboundEvent } from "../domain/inbound/inbound-event";
import { maskSensitiveData } from "../domain/privacy/credentials";
import { isLeftOut } from "../domain/privacy/left-out";
import { reminderMessage } from "../domain/reminders/reminder";
import type { ChatMeta } from "./chat-meta";
import { withSpendGate } from "./chat-spend-gate";
import type { DreamJournal } from "./dream-journal";
import type { Inbox, InboxRow } from "./inbox";
import { markedInChatLog } from "./log-marks";
import type { Outbox } from "./outbox";
import type { RecentTurns } from "./recent-turns";
import type { Reminders } from "./reminders";
import type { ReplyPlan } from "./reply-plan";
import { journalMessage, journalReply } from "./turn-journal";
import { turnNoticeFacts } from "./turn-notices";
import { pushTurnRecords } from "./turn-outbox-rows";
import { yieldToEvents } from "./yield-to-events";

/** A model failure is retried this many times (with backoff) before the bot apologizes. */
const MODEL_ATTEMPTS = 3;
/** A retryable send failure is retried this many times before the reply is given up. */
const SEND_ATTEMPTS = 5;
const FALLBACK_REPLY = "抱歉，我现在有点忙，稍后再试试吧。";
/** Meta key: the unfollowed-group notice was said in this chat (docs/storage.md#messages). */
const FOLLOW_NOTICE_SAID = "followNoticeSaid";
/** QQ allows at most 5 replies to one message (docs/qq-protocol.md#passive-replies). */
const REPLIES_PER_MESSAGE = 5;

export type TurnRunnerDeps = {
  readonly storage: DurableObjectStorage;
  readonly inbox: Inbox;
  readonly outbox: Outbox;
  readonly replies: ReplyPlan;
  readonly recent: RecentTurns;
  readonly journal: DreamJournal;
  /** Remembers that the unfollowed-group notice was said (FOLLOW_NOTICE_SAID). */
  readonly meta: ChatMeta;
  /** This chat's reminders: QQ's due ones ride along with the next reply. */
  readonly reminders: Reminders;
  /** The turn's one bag of services: the door's plus the object's context control and relay. */
  readonly services: () => ChatTurnServices;
};

export class TurnRunner {
  readonly #d: TurnRunnerDeps;
  constructor(deps: TurnRunnerDeps) {
    this.#d = deps;
  }

  /** Advances one inbox row as far as it can go. False when it must wait (backoff). */
  async advance(row: InboxRow, settings: Settings): Promise<boolean> {
    try {
      if (row.state === "pending") {
        if (!(await this.#decide(row, settings))) return false;
        // The plan is durable: a waiting enqueue goes first, then the replies are sent.
        await yieldToEvents();
      }
      return await this.#send(row, settings);
    } catch (e) {
      // A bug or an adapter that threw: back off like a failed model call, then give up on
      // the row so that one poisoned event cannot block its chat for ever.
      const giveUp = row.attempts + 1 >= MODEL_ATTEMPTS;
      this.#d
        .services()
        .logger.error("turn step threw", { chat: row.event.chat.key, giveUp, error: String(e) });
      if (giveUp) this.#d.inbox.setState(row.seq, "done", Date.now());
      else this.#d.inbox.backOff(row.seq, Date.now() + 2000 * 2 ** row.attempts);
      return giveUp;
    }
  }

  /** A user's message waiting for dreaming (turn-journal.ts). */
  journalUser(event: InboundEvent, text: string): void {
    journalMessage(this.#d.journal, event, text);
  }

  /** Runs the turn and persists its plan: replies, usage, short-term context, all at once. */
  async #decide(row: InboxRow, settings: Settings): Promise<boolean> {
    const services = this.#d.services();
    const event = row.event;
    const now = Date.now();
    const ctx = await turnContextOf({
      event,
      identity: services.identity,
      recent: (n) => this.#d.recent.list(n),
      settings,
      now,
      // A one-to-one chat's words are private by origin, and shared there only on purpose.
      nearRequest: !isOneToOne(event.chat.targetType) && markedInChatLog(this.#d.storage.sql, event),
    });
    const ports = withSpendGate(services, event.chat.key, settings, this.#d.storage);
    const result = await runTurn(ctx, ports, services.registry);
    const usage = result.ok ? result.value.usage : result.error.usage;
    const audit = result.ok ? result.value.audit : result.error.audit;
    // A cap reached or a model error: a notice to the owner (facts only; never fails the turn).
    for (const facts of turnNoticeFacts({
      chatKey: event.chat.key,
      provider: services.model.provider,
      audit,
      modelError: result.ok ? null : result.error.error,
    }))
      await services.notices.raise(facts);
    let replies: readonly string[];
    if (result.ok) {
      // The bot's own words may quote a credential (a tool result, an old log row): what it
      // sends, remembers as recent context and journals is masked like what it receives. The
      // model's answer was masked before its cut to length already; commands' replies were not.
      replies = result.value.replies.map(maskSensitiveData);
    } else if (row.attempts + 1 < MODEL_ATTEMPTS && result.error.error.kind !== "config") {
      services.logger.warn("model failed; will retry", {
        chat: event.chat.key,
        kind: result.error.error.kind,
      });
      this.#d.storage.transactionSync(() => {
        pushTurnRecords(this.#d.outbox, row, { usage, audit }, now);
        this.#d.inbox.backOff(row.seq, Date.now() + 2000 * 2 ** row.attempts);
      });
      return false;
    } else {
      services.logger.error("model failed; giving up", {
        chat: event.chat.key,
        kind: result.error.error.kind,
      });
      replies = [FALLBACK_REPLY];
    }
    // A group whose log is not kept hears once how an admin turns memory on.
    const notice =
      result.ok && !this.#d.meta.get<boolean>(FOLLOW_NOTICE_SAID)
        ? followNoticeFor(settings, event.chat, result.value.command)
        : null;
    if (notice !== null) replies = [...replies, notice];
    const reset = result.ok && result.value.contextReset;
    // In a shared chat, words the turn held that must stay here may be repeated by its replies:
    // they are marked like them (turn-privacy.ts). A private chat's log is read elsewhere only
    // by an admin on purpose (docs/identity.md), and its summaries are private already.
    const held = result.ok && result.value.heldPrivate && !isOneToOne(event.chat.targetType);
    const answeredByModel = !result.ok || result.value.command === null;
    // A left-out person is answered, but neither the question nor the answer is kept anywhere.
    const leftOut = isLeftOut(settings, event.sender?.account);
    const journaled =
      answeredByModel && !leftOut && isStored(settings, event.chat.key, event.chat.targetType);
    this.#d.storage.transactionSync(() => {
      // Reminders of this chat that could not be pushed (QQ official) are said now, with this
      // answer, and leave `open` in the same transaction that plans them: planned replies are
      // sent with a fixed msg_seq, which the platform deduplicates, so they are said once.
      replies = [...replies, ...this.#dueRiders(event, replies.length, now)];
      pushTurnRecords(this.#d.outbox, row, { usage, audit }, now);
      // A reset turn starts the new short-term context empty.
      if (!reset && !leftOut) {
        this.#d.recent.append(
          {
            role: "user",
            name: event.sender?.displayName ?? null,
            text: ctx.text,
            ts: event.message?.ts ?? now,
          },
          event.sender?.account ?? null,
        );
        for (const text of replies)
          this.#d.recent.append(
            { role: "assistant", name: null, text, ts: Date.now(), ...(held ? { held } : {}) },
            null,
          );
      }
      if (journaled) {
        journalMessage(this.#d.journal, event, ctx.text);
        if (result.ok) for (const text of replies) journalReply(this.#d.journal, text, held);
      }
      if (notice !== null) this.#d.meta.set(FOLLOW_NOTICE_SAID, true);
      this.#d.replies.plan(row.seq, replies, held);
      this.#d.inbox.setState(row.seq, "replying", now);
    });
    return true;
  }

  /** Due next-message reminders of this chat and transport, marked fired; their words. */
  #dueRiders(event: InboundEvent, planned: number, now: number): string[] {
    if (event.kind !== "message") return [];
    return this.#d.reminders
      .due("next-message", now, REPLIES_PER_MESSAGE - planned)
      .filter((r) => r.chat.key === event.chat.key && r.transport === event.transport)
      .map((r) => {
        this.#d.reminders.markFired(r.id, now);
        return reminderMessage(r);
      });
  }

  /** Sends every planned reply not yet sent, in order, then marks the row done. */
  async #send(row: InboxRow, settings: Settings): Promise<boolean> {
    const services = this.#d.services();
    const event = row.event;
    const outbound = services.outbound(event.transport);
    const stored =
      isStored(settings, event.chat.key, event.chat.targetType) &&
      !isLeftOut(settings, event.sender?.account);
    for (const reply of this.#d.replies.list(row.seq)) {
      if (reply.state !== "planned") continue;
      const sent = await outbound.send({
        chat: event.chat,
        text: reply.text,
        reply: event.reply,
        seq: reply.idx + 1,
      });
      const now = Date.now();
      if (sent.ok) {
        this.#d.storage.transactionSync(() => {
          this.#d.replies.markSent(row.seq, reply.idx, sent.value.messageId, now);
          if (!stored) return;
          const record = outboundRecord({
            transport: event.transport,
            chatKey: event.chat.key,
            messageId: sent.value.messageId ?? `out:${event.eventId}:${reply.idx + 1}`,
            ts: sent.value.ts,
            text: reply.text,
            botName: services.botName,
            marked: reply.held,
          });
          this.#d.outbox.push({ kind: "message", body: record }, now);
        });
      } else if (sent.error.retryable && reply.attempts + 1 < SEND_ATTEMPTS) {
        services.logger.warn("send failed; will retry", {
          chat: event.chat.key,
          kind: sent.error.kind,
          code: sent.error.code,
        });
        this.#d.storage.transactionSync(() => {
          this.#d.replies.markAttempt(row.seq, reply.idx, sent.error.message);
          this.#d.inbox.backOff(row.seq, now + 1000 * 2 ** reply.attempts);
        });
        return false;
      } else {
        services.logger.error("send failed; reply dropped", {
          chat: event.chat.key,
          kind: sent.error.kind,
          code: sent.error.code,
        });
        this.#d.replies.markFailed(row.seq, reply.idx, sent.error.message);
      }
    }
    this.#d.inbox.setState(row.seq, "done", Date.now());
    return true;
  }
}
