/**
 * The daily summaries' store: each chat-day's messages read by the chat's own object, which holds
 * its log (ChatSession.logDay, log-day.ts), with the pending chat-days and the records in D1.
 */
import { D1DailySummaries } from "../../adapters/d1/d1-daily-summaries";
import { chatKeyOf, parseChatKey } from "../../domain/chat/chat-address";
import type { DailySummaryStore } from "../../domain/summary/daily-summary-store";
import { chatObject } from "../common/chat-stub";

export function objectDaySummaries(env: Env): DailySummaryStore {
  const d1 = new D1DailySummaries(env.DB);
  return {
    pendingChats: (day, start, end, limit) => d1.pendingChats(day, start, end, limit),
    record: (r) => d1.record(r),
    async dayMessages(chatKey, start, end, limit, leftOut = []) {
      // The sweep skips a key that names no chat before it reads; one here is a caller's mistake.
      const address = parseChatKey(chatKey);
      if (!address.ok) throw new Error(`not a chat key: ${chatKey}`);
      return chatObject(env, chatKeyOf(address.value)).logDay({
        chatKey,
        start,
        end,
        limit,
        leftOut: [...leftOut],
      });
    },
  };
}
