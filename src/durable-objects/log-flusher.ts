/**
 * Writes the outbox to D1: in batches of `flushBatchRows`, at most about once per
 * `flushIntervalMs` so that several turns share one batch, and with backoff after a failure.
 * A batch leaves the outbox only after D1 accepted it, so a failed flush loses nothing.
 * Measured against one INSERT per message: docs/decisions/0005-message-log-flushed-in-batches.md.
 */

import type { Settings } from "../domain/config/settings";
import type { FlushBatch, MessageLog } from "../domain/history/message-log";
import type { Logger } from "../domain/kernel/logger";
import { isLeftOut } from "../domain/privacy/left-out";
import type { LogCounts } from "./log-counts";
import type { Outbox } from "./outbox";

const MAX_BACKOFF_MS = 60_000;
/** Changed hours per batch: one statement carries them all (d1-message-log.ts). */
const COUNT_HOURS = 500;
const NO_ROWS: FlushBatch = { messages: [], recalls: [], chats: [], usage: [], audit: [] };

export class LogFlusher {
  readonly #outbox: Outbox;
  readonly #counts: LogCounts | null;
  readonly #log: () => MessageLog;
  readonly #logger: () => Logger;
  #lastFlushAt = 0;
  #failures = 0;

  /** `counts`: the log's hourly counts, which ride the same batches (log-counts.ts). */
  constructor(deps: { outbox: Outbox; counts?: LogCounts; log: () => MessageLog; logger: () => Logger }) {
    this.#outbox = deps.outbox;
    this.#counts = deps.counts ?? null;
    this.#log = deps.log;
    this.#logger = deps.logger;
  }

  get failures(): number {
    return this.#failures;
  }

  /** When a log-only event's rows should go out: at the end of the current window. */
  windowEnd(settings: Settings, now: number): number {
    return Math.max(now, this.#lastFlushAt + settings.outbox.flushIntervalMs);
  }

  /** A batch is full, the window has passed, or a failed flush waits for its retry. */
  due(settings: Settings, now: number): boolean {
    if (this.#failures > 0) return true;
    return (
      this.#outbox.size() >= settings.outbox.flushBatchRows ||
      now >= this.#lastFlushAt + settings.outbox.flushIntervalMs
    );
  }

  /**
   * Writes every buffered row and changed count, batch by batch; stops at the first failure and
   * keeps the rest.
   */
  async flush(settings: Settings): Promise<void> {
    for (;;) {
      const taken = this.#outbox.take(settings.outbox.flushBatchRows);
      const counts = this.#counts?.take(COUNT_HOURS) ?? [];
      if (!taken && counts.length === 0) return;
      const batch = counts.length > 0 ? { ...(taken?.batch ?? NO_ROWS), counts } : (taken?.batch ?? NO_ROWS);
      try {
        await this.#log().flush(withoutLeftOutRows(settings, batch));
      } catch (e) {
        this.#failures++;
        this.#logger().error("flush failed; rows kept", {
          rows: taken?.rows ?? 0,
          failures: this.#failures,
          error: String(e),
        });
        return;
      }
      if (taken) this.#outbox.remove(taken.upTo);
      this.#counts?.settle(counts);
      this.#lastFlushAt = Date.now();
      this.#failures = 0;
    }
  }

  /** When the next flush should run, or null with nothing buffered and no count changed. */
  nextAt(settings: Settings | null, now: number): number | null {
    if (this.#outbox.size() === 0 && !this.#counts?.pending()) return null;
    const interval = settings?.outbox.flushIntervalMs ?? 1000;
    const backoff = this.#failures > 0 ? Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.#failures) : 0;
    return Math.max(now + backoff, this.#lastFlushAt + interval);
  }
}

/**
 * The batch without the rows of a person put on the do-not-record list after their message
 * was triaged: the list of the moment of writing decides, not that of arrival. The D1 triggers
 * of migration 0310 drop the same rows once more for every other writer.
 */
function withoutLeftOutRows(settings: Settings, batch: FlushBatch): FlushBatch {
  if (settings.privacy.doNotRecord.length === 0) return batch;
  return {
    ...batch,
    messages: batch.messages.filter((m) => !isLeftOut(settings, m.accountKey)),
    observations: batch.observations?.filter((o) => !isLeftOut(settings, o.account)),
  };
}
