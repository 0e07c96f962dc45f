/**
 * A history read made from inside a chat object, for the message-log bench
 * (`npm run bench -- chatlog`, local mode only): the read a turn's history tool makes, over the
 * log where the chats now keep it (`object`: this chat in place, another chat by a call to its
 * object, several chats by the bounded fan-out), or the same read over D1's log (`d1`, the path
 * before the move, still written), or no read at all (`none`: what the request itself costs).
 * The bench times the whole request from outside, since the runtime's clock does not move
 * during a read of the object's own SQLite; the D1 bill says what reached D1.
 */
import { coalescingD1 } from "../../adapters/d1/coalescing-d1";
import { countingD1, type D1Bill } from "../../adapters/d1/counting-d1";
import type { HistorySearch } from "../../domain/history/history-search-port";
import { historySearch } from "../common/history-search";
import { readRuntimeConfig } from "../common/runtime-config";
import { sqlCursors } from "./sql-cursors";
import type { ProbedChat } from "./turn-bill";

export type HistoryProbe = {
  readonly mode: "object" | "d1" | "none";
  /** One chat: that chat's search. Several: one search across them. */
  readonly chats: readonly string[];
  readonly text: string;
  readonly limit: number;
};

export type HistoryProbeAnswer = {
  readonly hits: number;
  /** Chats the read could not read (the fan-out names them; D1 reads all or fails). */
  readonly unread: number;
  readonly d1: Pick<D1Bill, "statements" | "roundTrips" | "rowsRead">;
  /** Rows the object's own SQLite read (from its cursors); a call to another object is not seen. */
  readonly doRowsRead: number;
};

async function read(history: HistorySearch, reader: string, q: HistoryProbe) {
  const [only] = q.chats;
  if (q.chats.length === 1 && only !== undefined) {
    const hits = await history.search({ chatKey: only, text: q.text, limit: q.limit, reader });
    return { hits: hits.length, unread: 0 };
  }
  const across = { chatKeys: q.chats, text: q.text, limit: q.limit, reader };
  if (history.searchAcrossChats) {
    const { hits, unread } = await history.searchAcrossChats(across);
    return { hits: hits.length, unread: unread.length };
  }
  return { hits: (await history.searchAcross(across)).length, unread: 0 };
}

/** D1's log as the turn's tools read it before the move: over the coalescing binding. */
const d1History = (env: Env): HistorySearch => historySearch({ ...env, DB: coalescingD1(env.DB) });

/** `reader` is the probed object's own chat. */
export async function probeHistory(
  env: Env,
  chat: ProbedChat,
  reader: string,
  q: HistoryProbe,
): Promise<HistoryProbeAnswer> {
  const counter = countingD1(env.DB, readRuntimeConfig(env).mode);
  const counted: Env = { ...env, DB: counter.db };
  const cursors = sqlCursors(chat.sql);
  try {
    const answer =
      q.mode === "none"
        ? { hits: 0, unread: 0 }
        : await read(q.mode === "object" ? chat.history(counted) : d1History(counted), reader, q);
    const { statements, roundTrips, rowsRead } = counter.bill();
    return {
      ...answer,
      d1: { statements, roundTrips, rowsRead },
      doRowsRead: cursors.rowsRead(),
    };
  } finally {
    cursors.stop();
  }
}
