/**
 * ContextStore over the message log (d1-message-retrieval.ts): one conversation passage per
 * message (`m_<seq>`, scope `chat:<chat key>`), whose context turns stay inside its session.
 */
import { messageNode, messageNodeId, messageSeqOf } from "../../domain/history/history-retrieval";
import type { ContextNode, NodeType } from "../../domain/retrieval/context-node";
import type { ContextStore, StoreFilter } from "../../domain/retrieval/ports";
import { jsonChunks } from "./d1-json-chunks";
import { messageGateSql } from "./d1-message-gate";
import { type D1MessageRow, MESSAGE_COLUMNS, MessageRowCache, toMessageRow } from "./d1-message-rows";
import {
  chatKeysOf,
  lowerBound,
  type MessageView,
  SENDER_FILTER,
  sendersParam,
  upperBound,
} from "./d1-message-view";

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
      if (row) out.push(messageNode(toMessageRow(row)));
      else missing.push(seq);
    }
    if (missing.length === 0) return out;
    for (const chunk of jsonChunks(missing)) {
      const { results } = await this.#db
        .prepare(
          `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.seq IN (SELECT value FROM json_each(?1))
             AND m.ts < ?2 AND m.ts >= ?3 AND ${messageGateSql("m", "?4")}`,
        )
        .bind(chunk, upperBound(this.#view), lowerBound(this.#view), this.#view.reader)
        .all<D1MessageRow>();
      out.push(...results.map((r) => messageNode(toMessageRow(r))));
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
          `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.chat_key = ?1 AND m.recalled = 0 AND m.ts < ?2
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
        .all<D1MessageRow>();
      out.push(...results.map((r) => messageNode(toMessageRow(r))));
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
      `SELECT ${MESSAGE_COLUMNS} FROM messages c JOIN messages m ON m.chat_key = c.chat_key
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
    const results = await Promise.all(statements.map((s) => s.all<D1MessageRow>()));
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
          const node = messageNode(toMessageRow(r));
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
