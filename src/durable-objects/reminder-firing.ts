/**
 * Sends this chat's due push reminders (OneBot) from the object's alarm. At most once: the
 * reminder leaves `open` in the transaction that records the attempt, before the send. If the
 * object is evicted after the platform accepted the message but before the outcome is recorded,
 * the retried alarm finds nothing open and sends nothing — OneBot's `send_msg` takes no
 * idempotency key, so the alternative (send again when unsure) could remind twice, and a
 * reminder said twice is worse than one lost to a crash at that instant. A refusal that
 * certainly delivered nothing (rate limit) opens it again, due a little later.
 * QQ official reminders are not sent here: they ride along with the next reply
 * (turn-runner.ts), since that platform only answers a message within its window.
 */
import type { ChatTurnServices } from "../composition/chat-object/chat-object-door";
import { isStored, type Settings } from "../domain/config/settings";
import { outboundRecord } from "../domain/history/message-record";
import { reminderLane, reminderMessage } from "../domain/reminders/reminder";
import type { Outbox } from "./outbox";
import type { DueReminder, Reminders } from "./reminders";

/** A rate-limited reminder is tried this many times in all. */
const RATE_LIMITED_ATTEMPTS = 3;
/** Reminders fired per alarm; the rearm comes straight back for the rest. */
const PER_ALARM = 20;

export type ReminderFiringDeps = {
  readonly storage: DurableObjectStorage;
  readonly reminders: Reminders;
  readonly outbox: Outbox;
  /** This object's chat key (null before its first event): a reminder only ever speaks there. */
  readonly chatKey: () => string | null;
  readonly services: () => Pick<ChatTurnServices, "outbound" | "botName" | "logger">;
};

export async function firePushReminders(deps: ReminderFiringDeps, settings: Settings): Promise<void> {
  for (const reminder of deps.reminders.due("push", Date.now(), PER_ALARM)) {
    await fireOne(deps, settings, reminder);
  }
}

async function fireOne(deps: ReminderFiringDeps, settings: Settings, r: DueReminder): Promise<void> {
  const services = deps.services();
  const now = Date.now();
  const lane = reminderLane(r.chat.key, r.id);
  // By construction a reminder lives in the object of its chat; checked all the same, because a
  // reminder said in the wrong chat is the one mistake this feature must never make.
  const home = deps.chatKey();
  const audit = (outcome: "ok" | "failed", cause: string | null) =>
    deps.outbox.push(
      {
        kind: "audit",
        body: {
          dedupeKey: `reminder:${r.chat.key}:${r.id}:${r.attempts}`,
          at: now,
          actor: null,
          action: "reminder.fired",
          chatKey: r.chat.key,
          target: `#${r.id}`,
          detail: { session: lane, delivery: r.delivery, outcome, cause },
        },
      },
      now,
    );
  if (home !== r.chat.key) {
    deps.storage.transactionSync(() => {
      deps.reminders.markFired(r.id, now);
      deps.reminders.recordOutcome(r.id, { error: "not this chat" });
      audit("failed", "not this chat");
    });
    services.logger.error("reminder outside its chat refused", { chat: home, reminderChat: r.chat.key });
    return;
  }
  deps.storage.transactionSync(() => deps.reminders.markFired(r.id, now));
  const text = reminderMessage(r);
  let sent: Awaited<ReturnType<ReturnType<typeof services.outbound>["send"]>>;
  try {
    sent = await services.outbound(r.transport).send({ chat: r.chat, text, reply: { kind: "none" }, seq: 1 });
  } catch (e) {
    // Whether it went out is unknown: recorded as failed, never sent again.
    deps.storage.transactionSync(() => {
      deps.reminders.recordOutcome(r.id, { error: `send threw: ${String(e).slice(0, 160)}` });
      audit("failed", "threw");
    });
    return;
  }
  deps.storage.transactionSync(() => {
    if (sent.ok) {
      deps.reminders.recordOutcome(r.id, { messageId: sent.value.messageId });
      audit("ok", null);
      if (!isStored(settings, r.chat.key, r.chat.targetType)) return;
      const record = outboundRecord({
        transport: r.transport,
        chatKey: r.chat.key,
        messageId: sent.value.messageId ?? `out:${lane}`,
        ts: sent.value.ts,
        text,
        botName: services.botName,
      });
      deps.outbox.push({ kind: "message", body: record }, now);
    } else if (sent.error.kind === "rate-limited" && r.attempts + 1 < RATE_LIMITED_ATTEMPTS) {
      deps.reminders.reopen(r.id, now + 60_000 * 2 ** r.attempts, r.text);
    } else {
      deps.reminders.recordOutcome(r.id, { error: sent.error.message.slice(0, 200) });
      audit("failed", sent.error.kind);
      services.logger.warn("reminder send failed", { chat: r.chat.key, kind: sent.error.kind });
    }
  });
}
