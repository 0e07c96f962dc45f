/**
 * KeywordIndex over the message log (d1-message-retrieval.ts): the turn windows'
 * `message_windows_fts`, or flat `messages_fts`, in each chat's own token namespace.
 */
import { messageNodeId } from "../../domain/history/history-retrieval";
import { roundRobin } from "../../domain/history/round-robin";
import type { Candidate, IndexFilter, KeywordIndex } from "../../domain/retrieval/ports";
import { chatMatchExpression } from "../../domain/text/chat-search-tokens";
import { messageGateSql } from "./d1-message-gate";
import { type D1MessageRow, MESSAGE_COLUMNS, MessageRowCache } from "./d1-message-rows";
import {
  chatKeysOf,
  lowerBound,
  type MessageView,
  SENDER_FILTER,
  sendersParam,
  upperBound,
} from "./d1-message-view";

const MAX_LIMIT = 500;

/**
 * The windowed statement's answer is exact when it held every match (fewer rows than the
 * window) or every row of it passed the filters: it is then a prefix of the full statement's
 * rank order. Otherwise (a row of another chat, or outside the view) the full statement runs
 * (docs/decisions/0015-history-windows-limited-inside-fts.md).
 */
const windowExact = (pool: number, visible: number, limit: number) => pool < limit || visible === pool;

export class D1MessageKeywordIndex implements KeywordIndex {
  readonly #db: D1Database;
  readonly #view: MessageView;
  readonly #rows: MessageRowCache;
  constructor(db: D1Database, view: MessageView, rows: MessageRowCache = new MessageRowCache()) {
    this.#db = db;
    this.#view = view;
    this.#rows = rows;
  }

  /**
   * One statement for any number of chats: the chats' own-namespace expressions ORed, the
   * SQL filter on chat the authoritative check. Several chats' bm25 scores are not comparable
   * (each chat has its own vocabulary), so their candidates are interleaved round-robin, each
   * chat's in its own rank order; one chat (the usual case) keeps its order.
   */
  async search(q: IndexFilter & { text: string; limit: number }): Promise<Candidate[]> {
    if (q.limit <= 0) return [];
    const chats = chatKeysOf(q);
    // Quoted tokens of each chat's own namespace: FTS syntax in the text is searched as text.
    const expressions = chats
      .map((chatKey) => chatMatchExpression(chatKey, q.text))
      .filter((e): e is string => e !== null);
    if (expressions.length === 0) return [];
    const match = expressions.length === 1 ? expressions[0] : expressions.map((e) => `(${e})`).join(" OR ");
    const filter = `m.chat_key IN (SELECT value FROM json_each(?2)) AND m.recalled = 0
           AND m.ts < ?3 AND m.ts >= ?5 AND ${SENDER_FILTER(6)} AND ${messageGateSql("m", "?7")}`;
    const binds = [
      match,
      JSON.stringify(chats),
      upperBound(this.#view),
      Math.min(q.limit * chats.length, MAX_LIMIT),
      lowerBound(this.#view),
      sendersParam(this.#view),
      this.#view.reader,
    ];
    type Hit = D1MessageRow & { rank: number };
    let ranked: Hit[];
    if (this.#view.flat) {
      const { results } = await this.#db
        .prepare(
          `SELECT ${MESSAGE_COLUMNS}, bm25(messages_fts) AS rank
           FROM messages_fts JOIN messages m ON m.seq = messages_fts.rowid
           WHERE messages_fts MATCH ?1 AND ${filter} ORDER BY rank LIMIT ?4`,
        )
        .bind(...binds)
        .all<Hit>();
      ranked = results;
    } else {
      // Messages logged before the windows existed and not yet backfilled are matched alone;
      // once the backfill is done (`pending` empty, the outer loop of the CROSS JOIN) that
      // statement reads nothing. Two reads started together rather than one explicit batch, so
      // that the turn's gathering binding (coalescing-d1.ts) sends them in the same round trip
      // as the other recall reads of its first wave; elsewhere they run side by side.
      const [windows, unwindowed] = await Promise.all([
        this.#windows(filter, binds),
        this.#db
          .prepare(
            `WITH pending AS (SELECT 1 FROM conversation_backfill WHERE done = 0)
             SELECT ${MESSAGE_COLUMNS}, bm25(messages_fts) AS rank
             FROM pending CROSS JOIN messages_fts JOIN messages m ON m.seq = messages_fts.rowid
             WHERE messages_fts MATCH ?1 AND ${filter}
               AND NOT EXISTS (SELECT 1 FROM message_windows w WHERE w.seq = m.seq)
             ORDER BY rank LIMIT ?4`,
          )
          .bind(...binds)
          .all<Hit>(),
      ]);
      const rest = unwindowed?.results ?? [];
      ranked = rest.length === 0 ? windows : roundRobin([windows, rest], MAX_LIMIT);
    }
    this.#rows.put(ranked);
    if (chats.length === 1) return ranked.map((r) => ({ nodeId: messageNodeId(r.seq), score: -r.rank }));
    const perChat = chats.map((chatKey) => ranked.filter((r) => r.chat_key === chatKey));
    return roundRobin(perChat, q.limit).map((r, i) => ({
      nodeId: messageNodeId(r.seq),
      // Scores that keep the interleaved order through fusion.
      score: q.limit - i,
    }));
  }

  /**
   * The turn windows' matches, best first. A view bounded only by `before` (the turn's own,
   * and most searches) first reads the window of the `limit` best FTS rows — FTS5 stops at
   * its LIMIT inside the index, so only those rows are joined to `messages` — and the filters
   * re-check each; only when that is not exact (windowExact) does the statement over every
   * match run. A view with a time range or senders, which a window would mostly miss, runs
   * the full statement at once.
   */
  async #windows(filter: string, binds: readonly unknown[]): Promise<(D1MessageRow & { rank: number })[]> {
    type Hit = D1MessageRow & { rank: number };
    const limit = binds[3] as number;
    const full = async () =>
      (
        await this.#db
          .prepare(
            `SELECT ${MESSAGE_COLUMNS}, bm25(message_windows_fts) AS rank
             FROM message_windows_fts JOIN messages m ON m.seq = message_windows_fts.rowid
             WHERE message_windows_fts MATCH ?1 AND ${filter} ORDER BY rank LIMIT ?4`,
          )
          .bind(...binds)
          .all<Hit>()
      ).results;
    if (this.#view.since !== undefined || this.#view.until !== undefined || this.#view.senders) return full();
    // The filters sit in the LEFT JOIN's ON: a row that fails them comes back as its window
    // slot alone (seq NULL), never with another chat's columns.
    const { results } = await this.#db
      .prepare(
        `SELECT ${MESSAGE_COLUMNS}, top.rank AS rank
         FROM (SELECT rowid AS wseq, rank FROM message_windows_fts
               WHERE message_windows_fts MATCH ?1 ORDER BY rank LIMIT ?4) AS top
         LEFT JOIN messages m ON m.seq = top.wseq AND ${filter}
         ORDER BY top.rank`,
      )
      .bind(...binds)
      .all<Omit<Hit, "seq"> & { seq: number | null }>();
    const visible = results.filter((r): r is Hit => r.seq !== null);
    return windowExact(results.length, visible.length, limit) ? visible : full();
  }
}
