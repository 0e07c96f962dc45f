/**
 * Where the day's spend is read from: the tokens `model_usage` holds for a chat and for all
 * chats within a day. Implemented over D1's per-hour usage counters.
 */
import type { SpendDay } from "./spend-day";

export type SpendTotalsRead = { readonly chat: number; readonly global: number };

export interface SpendLedger {
  /** Prompt + completion tokens recorded for `chatKey` and for every chat within `day`. */
  spent(chatKey: string, day: SpendDay): Promise<SpendTotalsRead>;
}
