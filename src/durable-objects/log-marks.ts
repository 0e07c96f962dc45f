/**
 * The privacy marks the chat's own log holds on its messages (docs/sessions.md#marked-messages):
 * a request of the speaker within ten minutes on either side, applied by the log's triggers
 * whichever message arrived first. The turn and dreaming read them by message id, so that what
 * they write to memory from a marked message is private at least.
 */
import type { InboundEvent } from "../domain/inbound/inbound-event";

/** Of `ids`, those the log of `chatKey` has marked. */
export function markedMessageIds(sql: SqlStorage, chatKey: string, ids: readonly string[]): Set<string> {
  const marked = new Set<string>();
  for (let i = 0; i < ids.length; i += 90) {
    const part = ids.slice(i, i + 90);
    const rows = sql.exec<{ message_id: string }>(
      `SELECT message_id FROM messages WHERE chat_key = ? AND private_marked <> 0
         AND message_id IN (${part.map(() => "?").join(", ")})`,
      chatKey,
      ...part,
    );
    for (const r of rows) marked.add(r.message_id);
  }
  return marked;
}

/** Whether the log marked the event's message (false for an event without one). */
export function markedInChatLog(sql: SqlStorage, event: InboundEvent): boolean {
  const id = event.message?.id;
  return id !== undefined && markedMessageIds(sql, event.chat.key, [id]).has(id);
}
