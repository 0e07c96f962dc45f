/**
 * A platform's group-history API as the backfill reads it (OneBot: `get_group_msg_history`,
 * src/adapters/onebot/onebot-history-client.ts). QQ official bots have no such API.
 */
import type { InboundEvent } from "../inbound/inbound-event";
import type { Result } from "../kernel/result";

/** One message of a history page: its sequence number, and the event when it is storable. */
export type HistoryEntry = {
  readonly seq: number;
  readonly event: InboundEvent | null;
  /** Why it is not stored (the bot's own message, a malformed item); null when `event` is set. */
  readonly skipped: string | null;
};

export type HistoryPageError = {
  readonly kind: "unavailable" | "rate-limited" | "rejected" | "config" | "bad-response";
  readonly message: string;
};

export interface GroupHistorySource {
  /**
   * Up to `count` messages of a group ending at `before` (the newest when null). Some
   * implementations include the message at `before` itself: callers keep only older ones.
   */
  page(
    groupId: string,
    before: number | null,
    count: number,
  ): Promise<Result<HistoryEntry[], HistoryPageError>>;
}
