/** What every step of a turn knows about the message being answered. Plain data. */
import type { Settings } from "../config/settings";
import type { SenderIdentity } from "../identity/sender-identity";
import type { InboundEvent, InboundSender } from "../inbound/inbound-event";

export type RecentTurn = {
  readonly role: "user" | "assistant";
  readonly name: string | null;
  readonly text: string;
  readonly ts: number;
  /**
   * A reply of the bot whose turn held words that must stay in this chat (turn-privacy.ts): it
   * may repeat them. Absent or false for the bot's other replies; a person's turn is read by
   * its own words (privacy-mark.ts).
   */
  readonly held?: boolean;
};

export type TurnContext = {
  readonly event: InboundEvent;
  readonly chat: InboundEvent["chat"];
  /**
   * The lane key when the turn runs in a lane of the chat (`qq:private:U1:cron:abc`);
   * absent for ordinary turns, whose session is the chat key. Scopes derive from it.
   */
  readonly session?: string;
  readonly sender: InboundSender | null;
  /** The sender's resolved identity (null for events without a sender). */
  readonly identity: SenderIdentity | null;
  /**
   * The sender is an admin, as the registry's `isAdmin` decided when the turn started (never
   * the model). A plain value, so memory learns whether an explicit write may go global without
   * knowing how admins are decided. Absent = not an admin.
   */
  readonly senderIsAdmin?: boolean;
  /** The message text being answered (normalized). */
  readonly text: string;
  /**
   * The chat's own log marked this message: its speaker asked for privacy within ten minutes of
   * it ("跟你们说个事，别外传啊", then this message; docs/sessions.md#marked-messages). What the
   * turn writes to memory from it is private at least. Absent = not marked.
   */
  readonly nearRequest?: boolean;
  readonly recent: readonly RecentTurn[];
  readonly settings: Settings;
  readonly now: number;
};
