/**
 * Local-only routes for the per-turn bill (`npm run bench -- turn`), mounted under
 * /dev/bench/turn, so they do not exist outside local mode. The memory items and the passages
 * are seeded by the memory and kb bench routes; this file seeds the message log.
 *
 *   POST /seed-messages  deterministic log rows (with their per-chat FTS tokens) in bulk
 *   POST /run            one turn of a chat over a counting D1, its bill (nothing persisted);
 *                        `history: "d1"` reads the log from D1 instead of the chats' objects
 *   POST /bare           the bare FTS queries that turn's recall makes, with their rows
 *   GET  /size           the D1 database's size in bytes (from a result's meta)
 */
import { Hono } from "hono";
import { z } from "zod";
import { chatProbeClient } from "../../composition/dev/chat-probe-client";
import type { AccountKey, ChatKey, TargetType } from "../../domain/chat/chat-address";
import { DEFAULT_SETTINGS } from "../../domain/config/settings";
import { LIVE_HISTORY_OPTIONS } from "../../domain/history/history-retrieval";
import type { InboundEvent } from "../../domain/inbound/inbound-event";
import { memoryMatch } from "../../domain/memory/memory-query";
import { OVERFETCH } from "../../domain/memory/recall";
import type { Scope } from "../../domain/memory/scope";
import { chatIndexText, chatMatchExpression } from "../../domain/text/chat-search-tokens";
import type { AppEnv } from "../app-env";
import { jsonBody } from "../json-body";
import { benchLine, benchNick } from "./bench-lines";

/** Chat c of the bench: the same keys the memory bench seeds its chat scopes under. */
export const benchChat = (c: number): string => (c % 2 === 0 ? `bench:private:u${c}` : `bench:group:g${c}`);

const SeedSchema = z.object({
  offset: z.number().int().min(0),
  n: z.number().int().min(1).max(20_000),
  chats: z.number().int().min(1).max(100_000),
});
const TurnSchema = z.object({
  // bench:… are the turn bench's chats; qq:group:… the message-log bench's (chatlog-bench.routes.ts).
  chat: z.string().regex(/^(bench|qq):(private|group):[A-Za-z0-9]+$/),
  sender: z.string().regex(/^[A-Za-z0-9]+$/),
  text: z.string().min(1).max(500),
  /** Where the turn reads the log: the objects (default, as the alarm's turn) or D1's copy. */
  history: z.enum(["object", "d1"]).default("object"),
});

/** Rows per INSERT: one JSON parameter expanded by json_each, so D1's parameter cap does not apply. */
const ROWS_PER_STATEMENT = 500;

export const turnBenchRoutes = new Hono<AppEnv>()
  .post("/seed-messages", jsonBody(SeedSchema), async (c) => {
    const { offset, n, chats } = c.req.valid("json");
    const started = performance.now();
    const rows = Array.from({ length: n }, (_, i) => {
      const k = offset + i;
      const chat = benchChat(k % chats);
      const text = benchLine(k);
      const who = benchNick(k * 3);
      return {
        chat,
        id: `bm_${k}`,
        ts: 1_700_000_000_000 + k * 1000,
        user: who,
        text,
        tokens: chatIndexText(chat, text),
      };
    });
    const insert = c.env.DB.prepare(
      `INSERT OR IGNORE INTO messages (transport, chat_key, message_id, ts, user_id, account_key, nick, text, tokens, direction)
       SELECT 'qq', json_extract(value, '$.chat'), json_extract(value, '$.id'), json_extract(value, '$.ts'),
         json_extract(value, '$.user'), 'bench:user:' || json_extract(value, '$.user'), json_extract(value, '$.user'),
         json_extract(value, '$.text'), json_extract(value, '$.tokens'), 'in'
       FROM json_each(?)`,
    );
    const statements = [];
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT)
      statements.push(insert.bind(JSON.stringify(rows.slice(i, i + ROWS_PER_STATEMENT))));
    await c.env.DB.batch(statements);
    return c.json({ n, ms: performance.now() - started });
  })
  .post("/run", jsonBody(TurnSchema), async (c) => {
    const body = c.req.valid("json");
    const key = body.chat as ChatKey;
    const [, targetType = "group", targetId = ""] = body.chat.split(":");
    const id = `bench-turn-${crypto.randomUUID()}`;
    const event: InboundEvent = {
      eventId: id,
      transport: "qq",
      kind: "message",
      wireType: "BENCH",
      chat: { key, channel: "bench", targetType: targetType as TargetType, targetId },
      sender: {
        userId: body.sender,
        account: `bench:user:${body.sender}` as AccountKey,
        displayName: body.sender,
        role: null,
        unionId: null,
        isBot: false,
      },
      message: {
        id,
        text: body.text,
        ts: Date.now(),
        addressedToBot: true,
        attachments: [],
        quotedMessageId: null,
      },
      deletedMessageId: null,
      reply: { kind: "msg_id", id },
      receivedAt: Date.now(),
      raw: { bench: true },
    };
    const started = performance.now();
    const bill = await chatProbeClient(c.env, key).bill(event, body.history);
    return c.json({ ms: performance.now() - started, ...bill });
  })
  .post("/bare", jsonBody(TurnSchema), async (c) => {
    const body = c.req.valid("json");
    // The FTS queries the turn's recall makes, with its filters and limits, minus everything
    // else (joins, re-checks, rows): history matches the chat's turn windows
    // (`message_windows_fts`, as many candidates as the history pipeline fetches for one chat);
    // memory reads each readable scope's own window (`perScope` = recall limit × overfetch,
    // native rank with the scope column weighted 0, as D1MemoryStore's windows do). The chat's
    // scope and global hold the seeded items; a scope without items (a private chat's sender
    // account) reads nothing on either side. The log has no pending backfill (seeded after the
    // migrations), so the turn's unwindowed `messages_fts` statement runs no FTS query.
    const perScope = DEFAULT_SETTINGS.memory.retrieval.recallLimit * OVERFETCH;
    const memoryWindow = (scope: Scope) => ({
      name: `memory:${scope.type}`,
      sql: `SELECT rowid FROM nodes_fts WHERE nodes_fts MATCH ? AND rank MATCH 'bm25(1.0, 0.0)'
            ORDER BY rank LIMIT ?`,
      match: memoryMatch(body.text, [scope]),
      limit: perScope,
    });
    const queries: { name: string; sql: string; match: string | null; limit: number }[] = [
      {
        name: "history",
        sql: "SELECT rowid FROM message_windows_fts WHERE message_windows_fts MATCH ? ORDER BY rank LIMIT ?",
        match: chatMatchExpression(body.chat, body.text),
        limit: LIVE_HISTORY_OPTIONS.candidates.keywordWindow,
      },
      memoryWindow({ type: "chat", id: body.chat }),
      memoryWindow({ type: "global", id: "__global__" }),
    ];
    const started = performance.now();
    const out: Record<string, { hits: number; rowsRead: number }> = {};
    let rowsRead = 0;
    for (const q of queries) {
      if (!q.match) continue;
      const r = await c.env.DB.prepare(q.sql).bind(q.match, q.limit).all();
      out[q.name] = { hits: r.results.length, rowsRead: r.meta.rows_read };
      rowsRead += r.meta.rows_read;
    }
    return c.json({ ms: performance.now() - started, rowsRead, roundTrips: Object.keys(out).length, ...out });
  })
  .get("/size", async (c) => {
    const r = await c.env.DB.prepare("SELECT 1").run();
    return c.json({ bytes: r.meta.size_after });
  });
