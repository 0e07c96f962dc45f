/**
 * When the chat object's one alarm should next fire. An object has one alarm and every kind of
 * due work shares it: open turns, untriaged events, dreaming, unflushed rows, push reminders and
 * the log's daily retention (which wakes even an idle chat's object while its log holds rows).
 * While a drain runs, an enqueue only sets a watchdog
 * (docs/decisions/0016-drain-watchdog-and-inbox-upkeep.md).
 */
import type { Settings } from "../domain/config/settings";
import type { ChatParts } from "./chat-parts";

/**
 * The alarm an enqueue sets while a drain runs: far enough out that a live drain always
 * comes first, near enough that a row whose drain died is answered within the minute
 * (docs/decisions/0016-drain-watchdog-and-inbox-upkeep.md).
 */
export const DRAIN_WATCHDOG_MS = 30_000;

/**
 * After a drain: the earliest of open work, dreaming, unflushed rows, the next push
 * reminder and the log's next retention run, or null with nothing due. `peek` gives the timing
 * settings when the run had none.
 */
export function nextAlarmAt(
  parts: Pick<ChatParts, "inbox" | "dreams" | "flusher" | "reminders" | "logRetention">,
  settings: Settings | null,
  peek: () => Settings,
  now: number,
): number | null {
  const open = parts.inbox.oldestOpen();
  const untriaged = parts.inbox.oldestUntriaged(now);
  const candidates = [
    open ? Math.max(now, open.notBefore) : null,
    // An event that needs a turn and arrived after the drain's last look: at once.
    untriaged?.needsTurn ? now : null,
    untriaged !== null ? parts.flusher.windowEnd(settings ?? peek(), now) : null,
    // A value sent alone whose wait for a naming ends (held-values.ts).
    parts.inbox.nextRelease(now),
    settings ? parts.dreams.dueAt(settings, now) : null,
    parts.flusher.nextAt(settings, now),
    // The next reminder to push: an alarm set for it survives restarts and deploys.
    parts.reminders.nextPushAt(),
    parts.logRetention.dueAt(now),
  ].filter((t): t is number => t !== null);
  return candidates.length > 0 ? Math.max(now, Math.min(...candidates)) : null;
}
