/**
 * The chat object's drain: triage every accepted event, then run the open rows' turns oldest
 * first, one at a time, flushing the outbox whenever a batch is full. Between slices of triage
 * and between turns the object's event loop is let in, so that a waiting `enqueue` of this chat
 * is answered without waiting for the whole drain.
 */
import { isStored, type Settings } from "../domain/config/settings";
import { isLeftOut } from "../domain/privacy/left-out";
import type { ChatParts } from "./chat-parts";
import type { ChatInfo } from "./dream-runner";
import { chatInfo, inboundRows } from "./inbound-rows";
import { maskNamedAfterLogging, type NamingParts } from "./named-after-logging";
import { yieldToEvents } from "./yield-to-events";

/**
 * Events triaged in one synchronous stretch, then a waiting enqueue goes first
 * (docs/decisions/0019-word-segments-remembered-triage-in-slices.md).
 */
export const TRIAGE_SLICE = 10;

type DrainParts = Pick<ChatParts, "meta" | "turns" | "flusher"> & NamingParts;

export async function drainInbox(
  parts: DrainParts,
  storage: DurableObjectStorage,
  settings: Settings,
): Promise<void> {
  for (;;) {
    await triage(parts, storage, settings);
    const row = parts.inbox.oldestOpen();
    // Strict order: a row waiting out a backoff holds back the rows behind it.
    if (!row || row.notBefore > Date.now()) return;
    // Between turns, let a waiting enqueue of this object in: a turn's synchronous work
    // (prompt building, the offline model) must not hold an ACK behind it. Rows arriving
    // now come after `row`, so its turn is still the next one.
    await yieldToEvents();
    if (!(await parts.turns.advance(row, settings))) return;
    if (parts.outbox.size() >= settings.outbox.flushBatchRows) await parts.flusher.flush(settings);
  }
}

/**
 * What accepted events add besides their inbox row, in arrival order: the registry row,
 * the message-log row (stored chats only), the account observation, a recall mark, and for
 * unaddressed chatter of a stored chat the short-term context and the dream journal, once a
 * naming has masked what it names. A row
 * needing no turn becomes its dedupe record. Each event is its own transaction. Between
 * slices of TRIAGE_SLICE events the object's event loop is let in: under load a drain finds
 * hundreds of untriaged rows, and each costs its tokens, its masking and its transaction, so
 * without these points an `enqueue` of this chat would wait for all of them.
 */
async function triage(parts: DrainParts, storage: DurableObjectStorage, settings: Settings): Promise<void> {
  for (let slice = 0; ; slice++) {
    if (slice > 0) await yieldToEvents();
    const batch = parts.inbox.untriaged(TRIAGE_SLICE);
    if (batch.length === 0) return;
    for (const { seq, needsTurn, receivedAt, event } of batch) {
      const stored = isStored(settings, event.chat.key, event.chat.targetType);
      // A left-out person (privacy.doNotRecord) leaves no row here: not in the log, not seen.
      const leftOut = isLeftOut(settings, event.sender?.account);
      storage.transactionSync(() => {
        if (!parts.meta.get<ChatInfo>("chat")) parts.meta.set("chat", chatInfo(event));
        // A value sent to the bot is stored before its sender can name it: a naming masks it
        // wherever it is, before this event's rows and its turn (named-after-logging.ts).
        maskNamedAfterLogging(parts, storage.sql, seq, event);
        for (const item of inboundRows(event, stored, leftOut, receivedAt))
          parts.outbox.push(item, receivedAt);
        // Unaddressed chatter of a followed group is context for the next addressed turn.
        if (!needsTurn && stored && !leftOut && event.kind === "message" && event.message) {
          const { text, ts } = event.message;
          parts.recent.append(
            { role: "user", name: event.sender?.displayName ?? null, text, ts },
            event.sender?.account ?? null,
          );
          parts.turns.journalUser(event, text);
        }
        parts.inbox.markTriaged(seq, needsTurn, Date.now());
      });
    }
  }
}
