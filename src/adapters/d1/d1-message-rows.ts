/**
 * The log rows a history search reads (`messages`, alias `m`), their mapping to the domain's
 * MessageRow, and the cache that lets one search's store serve the rows its keyword statement
 * already read (d1-message-retrieval.ts).
 */
import type { MessageRow } from "../../domain/history/history-retrieval";

export const MESSAGE_COLUMNS =
  "m.seq, m.chat_key, m.message_id, m.ts, m.nick, m.text, m.direction, m.recalled, m.private_marked";

export type D1MessageRow = {
  seq: number;
  chat_key: string;
  message_id: string;
  ts: number;
  nick: string | null;
  text: string;
  direction: "in" | "out";
  recalled: number;
  private_marked: number;
};

/**
 * The rows one search's keyword statement read, by seq, for that search's store: each passed
 * the statement's own SQL filters (the chats asked for, not recalled, inside the view), which
 * are the store's (the view) and more, so serving them is the load it replaces.
 */
export class MessageRowCache {
  readonly #rows = new Map<number, D1MessageRow>();
  put(rows: readonly D1MessageRow[]): void {
    for (const r of rows) this.#rows.set(r.seq, r);
  }
  get(seq: number): D1MessageRow | undefined {
    return this.#rows.get(seq);
  }
}

/** A log row's columns under the domain's names, less `recalled` (a recency listing never reads it). */
export const messageFields = (r: Omit<D1MessageRow, "recalled">): Omit<MessageRow, "recalled"> => ({
  seq: r.seq,
  chatKey: r.chat_key,
  messageId: r.message_id,
  ts: r.ts,
  nick: r.nick,
  text: r.text,
  direction: r.direction,
  marked: r.private_marked !== 0,
});

export const toMessageRow = (r: D1MessageRow): MessageRow => ({
  ...messageFields(r),
  recalled: r.recalled !== 0,
});
