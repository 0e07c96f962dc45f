/**
 * The owner's migration of a chat's D1 log into its object (docs/storage.md#moving-the-log-into-the-chat-objects):
 * pages of D1 rows are written here as they are, idempotently on the log's unique key, and the
 * chat's reads move here only once the object holds as many of the chat's rows as D1 does.
 * A page is checked whole before anything is written, and written in one transaction: a page
 * that names another chat, or a row that is not a log row, changes nothing.
 */
import { parseChatKey } from "../domain/chat/chat-address";
import { type MessageLogRow, recordOfLogRow } from "../domain/history/message-log-row";
import { type LogHome, logHomeOf, markLogHome } from "./chat-log-home";
import type { ChatMeta } from "./chat-meta";
import type { ChatInfo } from "./dream-runner";
import type { Outbox } from "./outbox";

/** One row of a page: D1's `messages` row, every column but `seq` (the object numbers its own rows). */
export type ImportRow = MessageLogRow;

export type ImportOutcome =
  | { ok: true; added: number; present: number }
  | { ok: false; reason: string; row?: number };

export type FinishOutcome =
  | { verified: true; home: LogHome; count: number }
  /** `difference`: the object's rows minus D1's (negative: rows the object lacks). */
  | { verified: false; home: LogHome; count: number; expected: number; difference: number }
  /** The expected count was no count: nothing checked, nothing changed. */
  | { verified: false; home: LogHome; refused: string };

/** The largest page the object takes in one call: one transaction stays short. */
export const MAX_IMPORT_PAGE = 1000;

const TEXT = ["transport", "chat_key", "message_id", "text", "tokens"] as const;
const NULLABLE = ["user_id", "account_key", "nick", "raw_json", "reply_to"] as const;

/** Why `row` is not a log row of `chat`, or null when it is one. */
function rowProblem(row: unknown, chat: string): string | null {
  if (typeof row !== "object" || row === null) return "is not an object";
  const r = row as Record<string, unknown>;
  for (const k of TEXT) if (typeof r[k] !== "string" || r[k] === "") return `${k} must be a non-empty string`;
  for (const k of NULLABLE)
    if (r[k] !== null && typeof r[k] !== "string") return `${k} must be a string or null`;
  if (!Number.isSafeInteger(r.ts)) return "ts must be an integer";
  if (r.direction !== "in" && r.direction !== "out") return "direction must be 'in' or 'out'";
  if (r.recalled !== 0 && r.recalled !== 1) return "recalled must be 0 or 1";
  if (![0, 1, 2, 3].includes(r.private_marked as number)) return "private_marked must be 0, 1, 2 or 3";
  if (r.chat_key !== chat) return `belongs to ${String(r.chat_key)}, not to this chat (${chat})`;
  return null;
}

/** The page's rows if every one is a row of `chat`, else why not (the first bad row). */
export function checkPage(rows: unknown, chat: string): { rows: ImportRow[] } | ImportOutcome {
  if (!Array.isArray(rows)) return { ok: false, reason: "rows must be an array" };
  if (rows.length > MAX_IMPORT_PAGE) return { ok: false, reason: `at most ${MAX_IMPORT_PAGE} rows a page` };
  for (const [i, row] of rows.entries()) {
    const problem = rowProblem(row, chat);
    if (problem) return { ok: false, reason: `row ${i}: ${problem}`, row: i };
  }
  return { rows: rows as ImportRow[] };
}

type ImportDeps = { storage: DurableObjectStorage; meta: ChatMeta; name: string | undefined };

/** The object's chat: its name, else the chat it recorded; null for one that never saw a chat. */
export function ownChat(deps: ImportDeps): string | null {
  return deps.name ?? deps.meta.get<ChatInfo>("chat")?.key ?? null;
}

/**
 * Writes one page, or refuses it whole. The object's chat is its name, else the chat it
 * recorded; an object that never saw an event takes the chat of the first page it is given
 * (and records it, as an event would). Nothing is written unless every row is that chat's.
 */
export function importPage(deps: ImportDeps, rows: unknown): ImportOutcome {
  const recorded = deps.meta.get<ChatInfo>("chat")?.key;
  const first: unknown = Array.isArray(rows) ? rows[0] : undefined;
  const offered =
    typeof first === "object" && first !== null ? (first as { chat_key?: unknown }).chat_key : null;
  const chat = deps.name ?? recorded ?? (typeof offered === "string" ? offered : null);
  // No chat known and none offered: an empty page, or a first row that is no log row.
  const page = checkPage(rows, chat ?? "");
  if (!("rows" in page)) return page;
  if (chat === null || page.rows.length === 0) return { ok: true, added: 0, present: 0 };
  const address = recorded === undefined ? parseChatKey(chat) : null;
  if (address && !address.ok) return { ok: false, reason: `${chat} is not a chat key` };
  return deps.storage.transactionSync(() => {
    if (address?.ok) deps.meta.set("chat", { key: chat, ...address.value });
    return { ok: true as const, ...writePage(deps.storage.sql, page.rows) };
  });
}

/**
 * Writes the page in reading order (time, then the order D1 gave, which is D1's seq), so the
 * log's triggers build sessions and turn windows as they did in D1. A row the object already
 * has (written here beside D1 since the move, or by an earlier run of this page) is left as it
 * is, except that D1's recall and privacy marks are applied: a mark is never taken back.
 * The caller runs this in one transaction.
 */
export function writePage(sql: SqlStorage, rows: readonly ImportRow[]): { added: number; present: number } {
  const ordered = rows.map((r, i) => ({ r, i })).sort((a, b) => a.r.ts - b.r.ts || a.i - b.i);
  let added = 0;
  for (const { r } of ordered) {
    const inserted = sql
      .exec(
        `INSERT INTO messages (transport, chat_key, message_id, ts, user_id, account_key, nick, text, tokens,
           raw_json, direction, recalled, reply_to, private_marked)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING seq`,
        r.transport,
        r.chat_key,
        r.message_id,
        r.ts,
        r.user_id,
        r.account_key,
        r.nick,
        r.text,
        r.tokens,
        r.raw_json,
        r.direction,
        r.recalled,
        r.reply_to,
        r.private_marked,
      )
      .toArray();
    if (inserted.length > 0) added++;
    else applyMarks(sql, r);
  }
  return { added, present: rows.length - added };
}

/** D1's recall and privacy marks on a row the object already had; each only ever rises. */
function applyMarks(sql: SqlStorage, r: ImportRow): void {
  const where = "transport = ? AND chat_key = ? AND message_id = ? AND ts = ?";
  const key = [r.transport, r.chat_key, r.message_id, r.ts] as const;
  if (r.recalled === 1) sql.exec(`UPDATE messages SET recalled = 1 WHERE ${where} AND recalled = 0`, ...key);
  if (r.private_marked > 0)
    sql.exec(
      `UPDATE messages SET private_marked = ? WHERE ${where} AND private_marked < ?`,
      r.private_marked,
      ...key,
      r.private_marked,
    );
}

/** How many rows of `chat` the object's log holds, recalled ones included. */
export function chatLogCount(sql: SqlStorage, chat: string): number {
  return sql.exec<{ n: number }>("SELECT count(*) AS n FROM messages WHERE chat_key = ?", chat).one().n;
}

/**
 * Message rows of `chat` still waiting in the outbox: the object has them, D1 may not yet
 * (or has them already, when a flush is under way).
 */
function unflushedRows(sql: SqlStorage, chat: string): number {
  return sql
    .exec<{ n: number }>(
      "SELECT count(*) AS n FROM outbox WHERE kind = 'message' AND json_extract(body, '$.chatKey') = ?",
      chat,
    )
    .one().n;
}

/**
 * The end of a chat's copy: D1 held `expected` rows of the chat when it was asked. The object
 * holds every one of them and at most its unflushed rows more (messages that arrived during
 * the copy and wait for their D1 flush): then its log is the chat's home. Otherwise the home
 * stays as it was and the answer says by how much the counts differ.
 */
export function finishImport(deps: ImportDeps, expected: number): FinishOutcome {
  const sql = deps.storage.sql;
  if (!Number.isSafeInteger(expected) || expected < 0)
    return {
      verified: false,
      home: logHomeOf(sql),
      refused: `expectedCount must be a whole number of rows, not ${String(expected)}`,
    };
  const chat = ownChat(deps);
  if (chat === null) {
    // Nothing was ever imported here: only an empty D1 log matches an empty object.
    if (expected === 0) markLogHome(sql, "object");
    const home = logHomeOf(sql);
    return expected === 0
      ? { verified: true, home, count: 0 }
      : { verified: false, home, count: 0, expected, difference: -expected };
  }
  const count = chatLogCount(sql, chat);
  const extra = count - expected;
  if (extra >= 0 && extra <= unflushedRows(sql, chat)) {
    markLogHome(sql, "object");
    // From here the chat's new rows stay here only (chat-parts.ts): a rollback resends them.
    deps.meta.set(HOME_SINCE, lastSeq(sql));
    return { verified: true, home: "object", count };
  }
  return { verified: false, home: logHomeOf(sql), count, expected, difference: extra };
}

/** The last log seq when the object became the log's home: later rows never reached D1. */
const HOME_SINCE = "log_home_since";

const lastSeq = (sql: SqlStorage) =>
  sql.exec<{ s: number }>("SELECT coalesce(max(seq), 0) AS s FROM messages").one().s;

type LogRow = ImportRow & { seq: number };

/**
 * The rollback: the chat's reads go back to D1 (nothing to do when they already go there). While the object was the home, the chat's new
 * messages and recall marks were kept here only, so in the same transaction as the home change
 * every row logged since then (all rows, when that moment is unknown) and every recall mark (a
 * recall may concern an older row) are queued for D1; the next flush makes D1 whole again, and
 * D1's unique key makes a row it already has a no-op.
 */
export function rollBackHome(
  deps: ImportDeps & { outbox: Outbox },
  now: number,
): { home: LogHome; resent: number; recalls: number } {
  return deps.storage.transactionSync(() => {
    const sql = deps.storage.sql;
    // Already read from D1: every row of the chat went there too.
    if (logHomeOf(sql) === "d1") return { home: "d1" as const, resent: 0, recalls: 0 };
    const since = deps.meta.get<number>(HOME_SINCE) ?? 0;
    markLogHome(sql, "d1");
    deps.meta.delete(HOME_SINCE);
    const rows = sql.exec<LogRow>("SELECT * FROM messages WHERE seq > ? ORDER BY seq", since).toArray();
    for (const r of rows) deps.outbox.push({ kind: "message", body: recordOfLogRow(r) }, now);
    const recalled = sql
      .exec<LogRow>("SELECT transport, chat_key, message_id FROM messages WHERE recalled = 1")
      .toArray();
    for (const r of recalled)
      deps.outbox.push(
        { kind: "recall", body: { transport: r.transport, chatKey: r.chat_key, messageId: r.message_id } },
        now,
      );
    return { home: logHomeOf(sql), resent: rows.length, recalls: recalled.length };
  });
}
