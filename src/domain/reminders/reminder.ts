/**
 * A reminder belongs to the chat it was set in and lives in that chat's object: it can only
 * ever speak there. This is the port the turn uses to set, list and cancel them; the chat object
 * implements it over its own storage and fires them (docs/memory.md#reminders).
 */
import type { AccountKey, ChatKey, TargetType } from "../chat/chat-address";
import type { Transport } from "../inbound/inbound-event";
import type { Result } from "../kernel/result";

/**
 * `push`: sent by the object's alarm at the time (OneBot may send active messages).
 * `next-message`: QQ official bots may only reply to a message within its window, so the
 * reminder rides along with the reply to the first message in the chat after it is due.
 */
export type ReminderDelivery = "push" | "next-message";

/** The chat a reminder was set in (the outbound port's target). */
export type ReminderChat = {
  readonly key: ChatKey;
  readonly channel: string;
  readonly targetType: TargetType;
  readonly targetId: string;
};

export type ReminderState = "open" | "sent" | "failed" | "cancelled";

/**
 * `notice`: a notice to the owner (docs/decisions/0280-notices-to-the-owner.md) that rides the
 * same delivery in the owner's private chat; `/reminders` neither lists nor cancels it.
 */
export type ReminderKind = "reminder" | "notice";

export type Reminder = {
  /** Short per-chat number, shown as `#id` by `/reminders`. */
  readonly id: number;
  readonly setBy: AccountKey | null;
  readonly setByName: string | null;
  /** What to say, masked for credentials before it was stored. */
  readonly text: string;
  readonly dueAt: number;
  readonly createdAt: number;
  readonly delivery: ReminderDelivery;
  readonly state: ReminderState;
  /** `reminder` when absent. */
  readonly kind?: ReminderKind;
};

export type NewReminder = {
  /** The inbound event that asked: a retried turn sets the same reminder, not a second one. */
  readonly eventId: string;
  readonly setBy: AccountKey | null;
  readonly setByName: string | null;
  readonly text: string;
  readonly dueAt: number;
  readonly now: number;
  readonly delivery: ReminderDelivery;
  /** The chat the request was said in, and how it came: the only place it will ever speak. */
  readonly chat: ReminderChat;
  readonly transport: Transport;
  /** `reminder` when absent. */
  readonly kind?: ReminderKind;
};

export type CancelError = { readonly kind: "not-found" } | { readonly kind: "not-yours" };

/** At most this many open reminders per chat. */
export const MAX_OPEN_REMINDERS = 50;

export interface ReminderBook {
  /** Sets a reminder in this chat; the same event id answers the reminder it set before. */
  add(reminder: NewReminder): Promise<Result<Reminder, { kind: "too-many"; limit: number }>>;
  /** This chat's open reminders, earliest first. */
  open(): Promise<readonly Reminder[]>;
  /** Cancels an open reminder of this chat: its setter, or an admin. Anything else changes nothing. */
  cancel(
    id: number,
    by: { account: AccountKey | null; isAdmin: boolean },
  ): Promise<Result<Reminder, CancelError>>;
}

/** How reminders of a transport are delivered. */
export function deliveryFor(transport: Transport): ReminderDelivery {
  return transport === "qq" ? "next-message" : "push";
}

/**
 * The cron lane a reminder's firing runs in (`qq:private:U1:cron:reminder-3`): a lane of the
 * chat it was set in, so by the memory design it reads that chat's scopes and nothing else
 * (docs/memory.md#scopes). The firing reads no memory at all — its words were fixed when it was
 * set — and the lane names it in the audit log.
 */
export function reminderLane(chat: ChatKey, id: number): string {
  return `${chat}:cron:reminder-${id}`;
}

/** What the chat hears when a reminder is due. */
export function reminderMessage(reminder: Pick<Reminder, "text" | "setByName" | "kind">): string {
  // A notice's words are the whole message, written for the owner (notices/owner-notice.ts).
  if (reminder.kind === "notice") return reminder.text;
  const who = reminder.setByName ? `@${reminder.setByName} ` : "";
  return reminder.text === "" ? `⏰ ${who}提醒：时间到了。` : `⏰ ${who}提醒：${reminder.text}`;
}
