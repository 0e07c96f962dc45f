/**
 * The check a chat makes before each model call. The recorded spend is read once per gate (one
 * turn, or one dreaming pass) — not once per tool round — and what the gate's own calls spent
 * since is added from their usage records, so later rounds cost no extra read.
 */
import type { SpendSettings } from "../config/spend-settings";
import type { Clock } from "../kernel/clock";
import { decideSpend, hasCaps, type SpendVerdict, type TokenCounts, tokensOf } from "./spend-cap";
import { type SpendDay, spendDay } from "./spend-day";
import type { SpendLedger } from "./spend-ledger";

export interface SpendGate {
  /** May the chat make one more call, given what this turn (or run) has already spent? */
  check(
    spentHere: readonly (TokenCounts & { readonly at: number })[],
  ): Promise<SpendVerdict & { day: SpendDay }>;
}

export type SpendGateDeps = {
  readonly chatKey: string;
  readonly caps: SpendSettings;
  /** The zone whose midnight starts the day (`calendar.timeZone`). */
  readonly timeZone: string;
  readonly ledger: SpendLedger;
  readonly clock: Clock;
  /**
   * Tokens of this chat's calls within the day that are recorded but not yet in D1 (the chat
   * object's outbox). They count for the chat and for the global total alike.
   */
  readonly unflushed: (day: SpendDay) => number;
};

export function dailySpendGate(deps: SpendGateDeps): SpendGate {
  let read: { day: string; chat: number; global: number } | null = null;
  return {
    async check(spentHere) {
      const day = spendDay(deps.clock.now(), deps.timeZone);
      if (!hasCaps(deps.caps)) return { allowed: true, day };
      if (read?.day !== day.day) {
        const recorded = await deps.ledger.spent(deps.chatKey, day);
        const pending = deps.unflushed(day);
        read = { day: day.day, chat: recorded.chat + pending, global: recorded.global + pending };
      }
      const here = spentHere
        .filter((u) => u.at >= day.start && u.at < day.end)
        .reduce((n, u) => n + tokensOf(u), 0);
      return { ...decideSpend({ chat: read.chat + here, global: read.global + here }, deps.caps), day };
    },
  };
}
