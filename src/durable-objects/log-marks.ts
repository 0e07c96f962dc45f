/**
 * The privacy marks the chat's own log holds on its messages (docs/sessions.md#marked-messages):
 * a request of the speaker within ten minutes on either side, applied by the log's triggers
 * whichever message arrived first. The turn and dreaming read them by message id, so that what
 * they write to memory from a marked message is private at least.
 */
import type { InboundEvent } from "../domain/inbound/inbound-event";

export type LoggedMessage = { readonly messageId: string; readonly ts: number };

/**
 * Of `messages`, the ids the log of `chatKey` has marked. The read is bounded by their times, so
 * it walks the (chat_key, ts) index over their span only, not the chat's whole log.
 */
export function markedMessageIds(
  sql: SqlStorage,
  chatKey: string,
  messages: readonly LoggedMessage[],
): Set<string> {
  const marked = new Set<string>();
  for (let i = 0; i < messages.length; i += 90) {
    const part = messages.slice(i, i + 90);
    const times = part.map((m) => m.ts);
    const rows = sql.exec<{ message_id: string }>(
      `SELECT message_id FROM messages WHERE chat_key = ? AND ts BETWEEN ? AND ? AND private_marked <> 0
         AND message_id IN (${part.map(() => "?").join(", ")})`,
      chatKey,
      Math.min(...times),
      Math.max(...times),
      ...part.map((m) => m.messageId),
    );
    for (const r of rows) marked.add(r.message_id);
  }
  return marked;
}

/** Whether the log marked the event's message (false for an event without one). */
export function markedInChatLog(sql: SqlStorage, event: InboundEvent): boolean {
  const message = event.message;
  if (!message) return false;
  return markedMessageIds(sql, event.chat.key, [{ messageId: message.id, ts: message.ts }]).has(message.id);
}
