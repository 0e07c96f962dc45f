/**
 * The message log as the retrieval pipeline reads it: a KeywordIndex over the log's turn
 * windows (`message_windows_fts`: each message with the turn before and after it in its
 * conversation session, migrations/0180) — or, flat, over `messages_fts`, each message alone —
 * with each chat's tokens in its own namespace (see chat-search-tokens), and a ContextStore
 * over `messages`, one conversation passage per message (`m_<seq>`, scope `chat:<chat key>`)
 * whose context turns stay inside its session.
 * Both can be a view of the log before a time (`before`, ms): newer messages do not exist
 * for them. The SQL filters on chat and `recalled = 0` are the authoritative checks, and the
 * message gate (d1-message-gate.ts): another chat's marked messages are never read for the
 * view's reader, as a match, a loaded node or a context turn.
 * `messageRetrieval` builds the pair for one search, sharing the rows the keyword statement
 * already read, so that the pipeline's load of its candidates reads nothing again.
 */
import {
  type MessageRow,
  messageNode,
  messageNodeId,
  messageSeqOf,
} from "../../domain/history/history-retrieval";
import { roundRobin } from "../../domain/history/round-robin";
import type { ContextNode, NodeType } from "../../domain/retrieval/context-node";
import type {
  Candidate,
  ContextStore,
  IndexFilter,
  KeywordIndex,
  StoreFilter,
} from "../../domain/retrieval/ports";
import { parseScopeKey } from "../../domain/retrieval/scope-key";
import { chatMatchExpression } from "../../domain/text/chat-search-tokens";
import { jsonChunks } from "./d1-json-chunks";
import { messageGateSql } from "./d1-message-gate";

/**
 * What of the log a search sees: messages at or after `since` and before `until` / `before`
 * (ms; `before` is the older name of `until`), and for matches (not the turns around them)
 * only those sent under one of `senders`' display names.
 */
export type MessageView = {
  /** The chat whose turn reads: another chat's marked messages are not served to it. */
  readonly reader: string;
  readonly before?: number;
  readonly since?: number;
  readonly until?: number;
  readonly senders?: readonly string[];
  /**
   * Match each message alone (`messages_fts`) and take context turns across sessions: the
   * flat log as it was before conversation trees, kept for the evaluation's comparison.
   */
  readonly flat?: boolean;
};

const MAX_LIMIT = 500;
const COLUMNS = "m.seq, m.chat_key, m.message_id, m.ts, m.nick, m.text, m.direction, m.recalled";

type Row = {
  seq: number;
  chat_key: string;
  message_id: string;
  ts: number;
  nick: string | null;
  text: string;
  direction: "in" | "out";
  recalled: number;
};

/**
 * The rows one search's keyword statement read, by seq, for that search's store: each passed
 * the statement's own SQL filters (the chats asked for, not recalled, inside the view), which
 * are the store's (the view) and more, so serving them is the load it replaces.
 */
export class MessageRowCache {
  readonly #rows = new Map<number, Row>();
  put(rows: readonly Row[]): void {
    for (const r of rows) this.#rows.set(r.seq, r);
  }
  get(seq: number): Row | undefined {
    return this.#rows.get(seq);
  }
}

const toRow = (r: Row): MessageRow => ({
  seq: r.seq,
  chatKey: r.chat_key,
  messageId: r.message_id,
  ts: r.ts,
  nick: r.nick,
  text: r.text,
  direction: r.direction,
  recalled: r.recalled !== 0,
});

/** The chat keys of a filter that a message can match: chat scopes, passages, no collection or root. */
function chatKeysOf(filter: StoreFilter & { readonly rootIds?: readonly string[] }): string[] {
  // Messages are passages with no collection and no root: a filter naming either matches none.
  if (!filter.nodeTypes.includes("passage") || filter.collections || filter.rootIds) return [];
  const keys = new Set<string>();
  for (const key of filter.scopes) {
    const scope = parseScopeKey(key);
    if (scope?.type === "chat") keys.add(scope.id);
  }
  return [...keys];
}

const upperBound = (view: MessageView) =>
  Math.min(view.before ?? Number.MAX_SAFE_INTEGER, view.until ?? Number.MAX_SAFE_INTEGER);
const lowerBound = (view: MessageView) => view.since ?? 0;
/** A JSON array of names, or null for no sender filter (SQL: `?n IS NULL OR nick IN …`). */
const sendersParam = (view: MessageView) => (view.senders ? JSON.stringify(view.senders) : null);
const SENDER_FILTER = (n: number) => `(?${n} IS NULL OR m.nick IN (SELECT value FROM json_each(?${n})))`;

/** The index and the store of one search over a view of the log, sharing the rows read. */
export function messageRetrieval(
  db: D1Database,
  view: MessageView,
): { keywords: D1MessageKeywordIndex; store: D1MessageStore } {
  const rows = new MessageRowCache();
  return { keywords: new D1MessageKeywordIndex(db, view, rows), store: new D1MessageStore(db, view, rows) };
}

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
    type Hit = Row & { rank: number };
    let ranked: Hit[];
    if (this.#view.flat) {
      const { results } = await this.#db
        .prepare(
          `SELECT ${COLUMNS}, bm25(messages_fts) AS rank
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
             SELECT ${COLUMNS}, bm25(messages_fts) AS rank
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
  async #windows(filter: string, binds: readonly unknown[]): Promise<(Row & { rank: number })[]> {
    type Hit = Row & { rank: number };
    const limit = binds[3] as number;
    const full = async () =>
      (
        await this.#db
          .prepare(
            `SELECT ${COLUMNS}, bm25(message_windows_fts) AS rank
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
        `SELECT ${COLUMNS}, top.rank AS rank
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

export class D1MessageStore implements ContextStore {
  readonly #db: D1Database;
  readonly #view: MessageView;
  readonly #rows: MessageRowCache;
  constructor(db: D1Database, view: MessageView, rows: MessageRowCache = new MessageRowCache()) {
    this.#db = db;
    this.#view = view;
    this.#rows = rows;
  }

  /**
   * Messages by node id, recalled ones included (archived); outside the view they are absent.
   * Rows this search's keyword statement read are not read again.
   */
  async load(nodeIds: readonly string[]): Promise<ContextNode[]> {
    const seqs = [...new Set(nodeIds.map(messageSeqOf).filter((s): s is number => s !== null))];
    if (seqs.length === 0) return [];
    const out: ContextNode[] = [];
    const missing: number[] = [];
    for (const seq of seqs) {
      const row = this.#rows.get(seq);
      if (row) out.push(messageNode(toRow(row)));
      else missing.push(seq);
    }
    if (missing.length === 0) return out;
    for (const chunk of jsonChunks(missing)) {
      const { results } = await this.#db
        .prepare(
          `SELECT ${COLUMNS} FROM messages m WHERE m.seq IN (SELECT value FROM json_each(?1))
             AND m.ts < ?2 AND m.ts >= ?3 AND ${messageGateSql("m", "?4")}`,
        )
        .bind(chunk, upperBound(this.#view), lowerBound(this.#view), this.#view.reader)
        .all<Row>();
      out.push(...results.map((r) => messageNode(toRow(r))));
    }
    return out;
  }

  async size(filter: StoreFilter): Promise<{ count: number; tokens: number }> {
    let count = 0;
    let tokens = 0;
    for (const chatKey of chatKeysOf(filter)) {
      const row = await this.#db
        .prepare(
          `SELECT count(*) AS count, coalesce(sum(length(m.text)), 0) AS chars FROM messages m
           WHERE m.chat_key = ?1 AND m.recalled = 0 AND m.ts < ?2 AND m.ts >= ?3 AND ${SENDER_FILTER(4)}
             AND ${messageGateSql("m", "?5")}`,
        )
        .bind(
          chatKey,
          upperBound(this.#view),
          lowerBound(this.#view),
          sendersParam(this.#view),
          this.#view.reader,
        )
        .first<{ count: number; chars: number }>();
      count += row?.count ?? 0;
      // Characters over-estimate Latin tokens and match CJK ones, like the knowledge store.
      tokens += row?.chars ?? 0;
    }
    return { count, tokens };
  }

  async readAll(filter: StoreFilter, limit: number): Promise<ContextNode[]> {
    const out: ContextNode[] = [];
    for (const chatKey of chatKeysOf(filter)) {
      if (out.length >= limit) break;
      const { results } = await this.#db
        .prepare(
          `SELECT ${COLUMNS} FROM messages m WHERE m.chat_key = ?1 AND m.recalled = 0 AND m.ts < ?2
             AND m.ts >= ?4 AND ${SENDER_FILTER(5)} AND ${messageGateSql("m", "?6")}
           ORDER BY m.ts, m.seq LIMIT ?3`,
        )
        .bind(
          chatKey,
          upperBound(this.#view),
          limit - out.length,
          lowerBound(this.#view),
          sendersParam(this.#view),
          this.#view.reader,
        )
        .all<Row>();
      out.push(...results.map((r) => messageNode(toRow(r))));
    }
    return out;
  }

  /** The log is flat: messages have no children. */
  async childrenOf(
    _parentIds: readonly string[],
    _nodeTypes: readonly NodeType[],
  ): Promise<Map<string, ContextNode[]>> {
    return new Map();
  }

  /** The log is flat: messages have no children. */
  async children(_nodeId: string, _limit: number): Promise<ContextNode[]> {
    return [];
  }

  /**
   * The `radius` previous and next non-recalled messages of the same chat around each
   * message, in reading order (ts, then seq). Seq numbers are global across chats, so their
   * differences do not count turns: a neighbour's position is its message's position plus or
   * minus its step in the chat — which is what the pipeline measures the radius in. A message
   * next to several of the given ones is returned once, at its step from the first.
   */
  async neighbours(nodeIds: readonly string[], radius: number): Promise<ContextNode[]> {
    const centres = [...new Set(nodeIds.map(messageSeqOf).filter((s): s is number => s !== null))];
    if (radius <= 0 || centres.length === 0) return [];
    const last = Math.ceil(upperBound(this.#view)) - 1;
    // Each side joins its centre row (`c`), so that the centre's chat and time are read in the
    // same statement: no separate load. A recalled centre has no neighbours.
    // Context turns stay inside the centre's conversation session (flat: anywhere in the chat;
    // a message not yet segmented has no session and is read like flat). Each side is one
    // range of the chat's (chat_key, ts) index, from the centre outwards to the session's edge
    // and the view's, so it reads the turns it returns and not the rest of the chat. Sessions
    // of a chat never overlap: the one holding the centre is the first to end at or after it.
    const session = (edge: "first_ts" | "last_ts", none: string) =>
      this.#view.flat
        ? none
        : `coalesce((SELECT CASE WHEN s.first_ts <= c.ts THEN s.${edge} END FROM conversation_sessions s
                     WHERE s.chat_key = c.chat_key AND s.last_ts >= c.ts ORDER BY s.last_ts LIMIT 1), ${none})`;
    // ?2 and ?4: the view's last and first millisecond (timestamps are whole milliseconds).
    const range = (before: boolean) =>
      before
        ? `m.ts BETWEEN max(?4, ${session("first_ts", "?4")}) AND min(c.ts, ?2)
           AND (m.ts < c.ts OR m.seq < c.seq)`
        : `m.ts BETWEEN max(c.ts, ?4) AND min(?2, ${session("last_ts", "?2")})
           AND (m.ts > c.ts OR m.seq > c.seq)`;
    const side = (before: boolean) =>
      `SELECT ${COLUMNS} FROM messages c JOIN messages m ON m.chat_key = c.chat_key
         WHERE c.seq = ?1 AND c.recalled = 0 AND m.recalled = 0 AND ${range(before)}
           AND ${messageGateSql("c", "?5")} AND ${messageGateSql("m", "?5")}
         ORDER BY ${before ? "m.ts DESC, m.seq DESC" : "m.ts, m.seq"} LIMIT ?3`;
    const statements = centres.flatMap((seq) => [
      this.#db.prepare(side(true)).bind(seq, last, radius, lowerBound(this.#view), this.#view.reader),
      this.#db.prepare(side(false)).bind(seq, last, radius, lowerBound(this.#view), this.#view.reader),
    ]);
    // Reads started together rather than one explicit batch: the turn's gathering binding
    // (coalescing-d1.ts) then sends them in the same round trip as the memory recall and
    // mandatory block reads that wait on the same first wave; elsewhere they run side by side.
    const results = await Promise.all(statements.map((s) => s.all<Row>()));
    const given = new Set(centres.map(messageNodeId));
    const seen = new Set<string>();
    const out: ContextNode[] = [];
    centres.forEach((position, i) => {
      const sides = [
        { rows: results[2 * i]?.results ?? [], sign: -1 },
        { rows: results[2 * i + 1]?.results ?? [], sign: 1 },
      ];
      for (const { rows, sign } of sides) {
        rows.forEach((r, step) => {
          const node = messageNode(toRow(r));
          if (given.has(node.nodeId) || seen.has(node.nodeId)) return;
          seen.add(node.nodeId);
          out.push({ ...node, position: position + sign * (step + 1) });
        });
      }
    });
    return out;
  }

  /** The log is flat: messages have no parents. */
  async ancestors(_nodeId: string): Promise<ContextNode[]> {
    return [];
  }
}
