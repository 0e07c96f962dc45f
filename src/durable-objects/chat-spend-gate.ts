/**
 * The chat object's spend gate for one turn or one dreaming pass: the day's spend from D1's
 * counters plus this chat's calls still waiting in the outbox, read at most once per gate.
 */
import type { Settings } from "../domain/config/settings";
import type { Clock } from "../domain/kernel/clock";
import { dailySpendGate, type SpendGate } from "../domain/spend/spend-gate";
import type { SpendLedger } from "../domain/spend/spend-ledger";
import { unflushedTokens } from "./unflushed-spend";

export function chatSpendGate(
  chatKey: string,
  settings: Settings,
  deps: { spendLedger: SpendLedger; clock: Clock },
  storage: DurableObjectStorage,
): SpendGate {
  return dailySpendGate({
    chatKey,
    caps: settings.spend,
    timeZone: settings.calendar.timeZone,
    ledger: deps.spendLedger,
    clock: deps.clock,
    unflushed: (day) => unflushedTokens(storage.sql, day),
  });
}

/**
 * The turn's ports with the gate `runTurn` checks before each model call. The offline model
 * costs nothing, so its turns are never capped and pay no spend read.
 */
export function withSpendGate<
  P extends { spendLedger: SpendLedger; clock: Clock; model: { provider: string } },
>(ports: P, chatKey: string, settings: Settings, storage: DurableObjectStorage): P & { spend?: SpendGate } {
  if (ports.model.provider === "offline") return ports;
  return { ...ports, spend: chatSpendGate(chatKey, settings, ports, storage) };
}
