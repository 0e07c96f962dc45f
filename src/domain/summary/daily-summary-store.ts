/** Where the daily summaries read the log and record each chat-day (D1: d1-daily-summaries.ts). */
import type { UsageRecord } from "../model/chat-model";
import type { DailySummary } from "./daily-summary";
import type { DayMessage } from "./day-message";

export type PendingChatDay = { readonly chatKey: string; readonly messages: number };

export type ChatDayRecord = {
  readonly chatKey: string;
  readonly day: string;
  /** The node to write, or null when the day was skipped (the reason says why). */
  readonly summary: DailySummary | null;
  readonly skipped: string | null;
  readonly usage: UsageRecord | null;
  /** The summary node's created_at: the end of the day it covers, so "latest" means newest day. */
  readonly dayEnd: number;
  readonly at: number;
};

export interface DailySummaryStore {
  /** Chats with stored messages in `[start, end)` and no record for `day`, by chat key. */
  pendingChats(day: string, start: number, end: number, limit: number): Promise<PendingChatDay[]>;
  /**
   * One chat's messages in `[start, end)`, oldest first; the newest `limit` when there are more.
   * Messages of the `leftOut` accounts (privacy.doNotRecord) are never read.
   */
  dayMessages(
    chatKey: string,
    start: number,
    end: number,
    limit: number,
    leftOut?: readonly string[],
  ): Promise<DayMessage[]>;
  /** Writes the node and the day's record at once; a (chat, day) already recorded changes nothing. */
  record(r: ChatDayRecord): Promise<void>;
}
