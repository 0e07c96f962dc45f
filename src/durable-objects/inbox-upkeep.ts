/**
 * The chat object's upkeep after a drain. Dedupe records are dropped once they are past the
 * retention; their reply plans with them. Both statements walk every done row, so they run once
 * per PRUNE_INTERVAL_MS rather than after every drain (a record kept a little longer only
 * dedupes a little longer). Closed reminders past their keep go at the same time.
 */
import type { Inbox } from "./inbox";
import type { Reminders } from "./reminders";
import type { ReplyPlan } from "./reply-plan";

/**
 * How often the rearm drops expired dedupe records
 * (docs/decisions/0016-drain-watchdog-and-inbox-upkeep.md).
 */
const PRUNE_INTERVAL_MS = 10 * 60 * 1000;

export class InboxUpkeep {
  readonly #parts: { inbox: Inbox; replies: ReplyPlan; reminders: Reminders };
  #prunedAt = 0;
  #orphansChecked = false;

  constructor(parts: { inbox: Inbox; replies: ReplyPlan; reminders: Reminders }) {
    this.#parts = parts;
  }

  prune(now: number): void {
    if (now - this.#prunedAt < PRUNE_INTERVAL_MS) return;
    this.#prunedAt = now;
    if (this.#parts.inbox.prune(now) > 0 || !this.#orphansChecked) this.#parts.replies.pruneOrphans();
    this.#parts.reminders.prune(now);
    this.#orphansChecked = true;
  }
}
