/** Reads a chat object's own message log (its SQLite), as the tests see it. */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { ChatSession } from "../../src/durable-objects/chat-session";

export type ObjectLogRow = {
  seq: number;
  message_id: string;
  direction: string;
  text: string;
  nick: string | null;
  recalled: number;
  private_marked: number;
};

export function objectLogRows(chatKey: string): Promise<ObjectLogRow[]> {
  return runInDurableObject(env.CHAT_SESSION.getByName(chatKey), (_o: ChatSession, state) =>
    state.storage.sql
      .exec<ObjectLogRow>(
        "SELECT seq, message_id, direction, text, nick, recalled, private_marked FROM messages ORDER BY ts, seq",
      )
      .toArray(),
  );
}

/** The rowids the object's turn-window index matches for an FTS expression. */
export function objectWindowMatches(chatKey: string, expression: string): Promise<number[]> {
  return runInDurableObject(env.CHAT_SESSION.getByName(chatKey), (_o: ChatSession, state) =>
    state.storage.sql
      .exec<{ rowid: number }>(
        "SELECT rowid FROM message_windows_fts WHERE message_windows_fts MATCH ?",
        expression,
      )
      .toArray()
      .map((r) => r.rowid),
  );
}
