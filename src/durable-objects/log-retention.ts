/**
 * Retention of the chat's message log in the object's own SQLite (chat-log-schema.ts), run by
 * the object's alarm once a day: messages older than the chat's retention are deleted, and the
 * log's triggers take their full-text rows, turn windows, conversation sessions and sender
 * counts with them. The deletes go in small transactions with a yield between them, a few per
 * alarm: a chat with a large backlog continues at its next alarm, after the turns waiting then,
 * so its object is never held for long. D1's log keeps its own cron retention while it still
 * receives every row (src/adapters/d1/retention.ts).
 */
import { retentionDays, type Settings } from "../domain/config/settings";
import type { ChatMeta } from "./chat-meta";
import type { ChatInfo } from "./dream-runner";
import type { Inbox } from "./inbox";
import { yieldToEvents } from "./yield-to-events";

export const DAY_MS = 86_400_000;
/** A run that could not learn the chat's retention tries again this much later, not at once. */
const RETRY_MS = 60 * 60 * 1000;
const KEY = "log_retention";

export type LogRetentionLimits = {
  /** Rows per transaction. */
  readonly chunk: number;
  /** Transactions per alarm; the rest waits for the next alarm. */
  readonly chunksPerAlarm: number;
};

export const LOG_RETENTION_LIMITS: LogRetentionLimits = { chunk: 500, chunksPerAlarm: 4 };

/**
 * `nextAt`: when the next daily run is due. `cutoff`: set while a run has rows left — they are
 * deleted at the next alarm with the same cutoff, without asking D1 again.
 */
type RetentionState = { nextAt: number; cutoff: number | null };

export type LogRetentionRun = { deleted: number; complete: boolean; days: number | null };

export type LogRetentionDeps = {
  readonly sql: SqlStorage;
  readonly storage: DurableObjectStorage;
  readonly meta: ChatMeta;
  /**
   * `retentionOverride`: the chat's own retention in days as D1 holds it (`chats.retention_days`),
   * null when unset. Read once per daily run rather than pushed to the object when `/session
   * retention` sets it: an override set before this object kept a log, or written by any path
   * that does not reach the object, would otherwise be missed, and a missed longer override
   * deletes messages early. One small indexed read per chat per day costs nothing next to the turns.
   */
  readonly services: () => { retentionOverride: (chatKey: string) => Promise<number | null> };
  /** A turn waiting (an untriaged event that needs one) stops the run between chunks. */
  readonly inbox: Pick<Inbox, "oldestUntriaged">;
};

export class LogRetention {
  readonly #deps: LogRetentionDeps;
  readonly #limits: LogRetentionLimits;

  constructor(deps: LogRetentionDeps, limits: LogRetentionLimits = LOG_RETENTION_LIMITS) {
    this.#deps = deps;
    this.#limits = limits;
  }

  /** When the alarm should come for retention: null with an empty log, else daily (at once to continue). */
  dueAt(now: number): number | null {
    if (!this.#anyBefore()) return null;
    const state = this.#state();
    if (state === null || state.cutoff !== null) return now;
    return state.nextAt;
  }

  /**
   * Deletes the expired messages when a run is due; null when none was (nothing read, nothing
   * written). A failed read of the chat's override deletes nothing and is thrown for the alarm
   * to log; the run is tried again an hour later, not at every alarm.
   */
  async runIfDue(settings: Settings, now: number): Promise<LogRetentionRun | null> {
    const due = this.dueAt(now);
    if (due === null || due > now) return null;
    const state = this.#state();
    if (state !== null && state.cutoff !== null) return this.#delete(state.nextAt, state.cutoff, null);
    this.#save({ nextAt: now + RETRY_MS, cutoff: null });
    const days = await this.#days(settings);
    if (days === null) return { deleted: 0, complete: false, days: null };
    return this.#delete(now + DAY_MS, now - days * DAY_MS, days);
  }

  /** Messages before `cutoff`, a chunk per transaction; `nextAt` is the next daily run. */
  async #delete(nextAt: number, cutoff: number, days: number | null): Promise<LogRetentionRun> {
    const { chunk, chunksPerAlarm } = this.#limits;
    let deleted = 0;
    for (let i = 0; i < chunksPerAlarm; i++) {
      if (i > 0) {
        await yieldToEvents();
        if (this.#deps.inbox.oldestUntriaged()?.needsTurn) break;
      }
      const changed = this.#deps.storage.transactionSync(() => {
        const n = this.#deps.sql
          .exec(
            "DELETE FROM messages WHERE seq IN (SELECT seq FROM messages WHERE ts < ? ORDER BY ts LIMIT ?) RETURNING seq",
            cutoff,
            chunk,
          )
          .toArray().length;
        const left = n === chunk && this.#anyBefore(cutoff);
        this.#save({ nextAt, cutoff: left ? cutoff : null });
        return { n, left };
      });
      deleted += changed.n;
      if (!changed.left) return { deleted, complete: true, days };
    }
    return { deleted, complete: false, days };
  }

  /**
   * The chat's retention: its override if D1 holds a valid one, else the default for its type.
   * Null without the chat's address (no log is written before the object knows it).
   */
  async #days(settings: Settings): Promise<number | null> {
    const chat = this.#deps.meta.get<ChatInfo>("chat");
    if (!chat) return null;
    const override = await this.#deps.services().retentionOverride(chat.key);
    // A value that is no number of days reads as unset (the default for the chat's type, never
    // "forever"); a fraction rounds up, never deleting a day early.
    const usable = typeof override === "number" && Number.isFinite(override) && override > 0;
    return retentionDays(settings, chat.targetType, usable ? Math.ceil(override) : null);
  }

  /** Whether the log holds a message older than `ts` (any message at all by default). */
  #anyBefore(ts = Number.MAX_SAFE_INTEGER): boolean {
    return this.#deps.sql.exec("SELECT 1 FROM messages WHERE ts < ? LIMIT 1", ts).toArray().length > 0;
  }

  #state(): RetentionState | null {
    const s = this.#deps.meta.get<RetentionState>(KEY);
    return s && typeof s.nextAt === "number" ? s : null;
  }

  #save(state: RetentionState): void {
    this.#deps.meta.set(KEY, state);
  }
}
