/**
 * Local-only routes for the message-log bench (`npm run bench -- chatlog`), mounted under
 * /dev/bench/chatlog, so they do not exist outside local mode. Each chat's log lives in its own
 * object; the seed also writes the same rows into D1's log, the path before the move, so that the
 * bench reads the same questions from both in the same run.
 *
 *   POST /seed   deterministic messages for a range of chats: into each chat's object
 *                (ChatSession.appendLog) and into D1's log, the same rows
 *   POST /sizes  the chats' objects' SQLite sizes and D1's size, in bytes
 *   POST /read   one history read made from a chat's object (history-probe.ts)
 */
import { Hono } from "hono";
import { z } from "zod";
import { chatObject } from "../../composition/common/chat-stub";
import { chatProbeClient } from "../../composition/dev/chat-probe-client";
import type { ChatKey } from "../../domain/chat/chat-address";
import type { MessageRecord } from "../../domain/history/message-record";
import { chatIndexText } from "../../domain/text/chat-search-tokens";
import type { AppEnv } from "../app-env";
import { jsonBody } from "../json-body";
import { BENCH_SPEAKERS, benchLine, benchNick } from "./bench-lines";

/** Chat c of the bench: a QQ group, so that the webhook reaches the same objects. */
export const chatlogBenchChat = (c: number): ChatKey => `qq:group:CLB${c}` as ChatKey;

const WEEK_MS = 7 * 24 * 3_600_000;

/**
 * Where the seeded messages start: two to three weeks ago, the same for every seed request of a
 * week (so seeding stays idempotent), and young enough that no chat's retention (90 days for a
 * group) deletes them while the bench runs.
 */
const seedEpoch = (): number => Math.floor(Date.now() / WEEK_MS) * WEEK_MS - 2 * WEEK_MS;

/**
 * Message k of chat c: two minutes apart, an hour's pause after every 20 (a new conversation
 * session), a raw payload of the webhook's shape and size.
 */
export function chatlogBenchRecord(c: number, k: number): MessageRecord {
  const chatKey = chatlogBenchChat(c);
  const nick = benchNick(k * 3 + c);
  const text = benchLine(k, c);
  const ts = seedEpoch() + k * 120_000 + Math.floor(k / 20) * 3_600_000 + c;
  const messageId = `ROBOT1.0_clb${c}-${k}`;
  const user = `M${(k * 3 + c) % BENCH_SPEAKERS}`;
  const raw = { id: messageId, content: ` ${text}`, timestamp: new Date(ts).toISOString() };
  return {
    transport: "qq",
    chatKey,
    messageId,
    ts,
    userId: user,
    accountKey: `qq:user:${user}`,
    nick,
    text,
    tokens: chatIndexText(chatKey, `${nick}: ${text}`),
    rawJson: JSON.stringify({ ...raw, author: { member_openid: user }, group_openid: `CLB${c}` }),
    direction: "in",
    replyTo: null,
    privateMarked: 0,
  };
}

const SeedSchema = z
  .object({
    /** The first chat and how many. */
    chat: z.number().int().min(0).max(100_000),
    chats: z.number().int().min(1).max(1000),
    /** Each chat's messages [offset, offset + n). */
    offset: z.number().int().min(0),
    n: z.number().int().min(1).max(20_000),
  })
  .refine((s) => s.chats * s.n <= 20_000, { message: "at most 20,000 messages per request" });
const ChatList = z.array(z.string().regex(/^qq:group:[A-Za-z0-9]+$/)).max(1000);
const ReadSchema = z.object({
  reader: z.string().regex(/^qq:group:[A-Za-z0-9]+$/),
  mode: z.enum(["object", "d1", "none"]),
  chats: ChatList,
  text: z.string().min(1).max(500),
  limit: z.number().int().min(1).max(50).default(10),
});

/** Rows per D1 INSERT: one JSON parameter expanded by json_each, well under D1's value size cap. */
const ROWS_PER_STATEMENT = 200;

async function seedD1(db: D1Database, records: readonly MessageRecord[]): Promise<void> {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO messages (transport, chat_key, message_id, ts, user_id, account_key, nick, text, tokens,
       raw_json, direction, reply_to, private_marked)
     SELECT json_extract(value, '$.transport'), json_extract(value, '$.chatKey'), json_extract(value, '$.messageId'),
       json_extract(value, '$.ts'), json_extract(value, '$.userId'), json_extract(value, '$.accountKey'),
       json_extract(value, '$.nick'), json_extract(value, '$.text'), json_extract(value, '$.tokens'),
       json_extract(value, '$.rawJson'), json_extract(value, '$.direction'), json_extract(value, '$.replyTo'),
       json_extract(value, '$.privateMarked')
     FROM json_each(?)`,
  );
  const statements = [];
  for (let i = 0; i < records.length; i += ROWS_PER_STATEMENT)
    statements.push(insert.bind(JSON.stringify(records.slice(i, i + ROWS_PER_STATEMENT))));
  if (statements.length > 0) await db.batch(statements);
}

export const chatlogBenchRoutes = new Hono<AppEnv>()
  .post("/seed", jsonBody(SeedSchema), async (c) => {
    const { chat, chats, offset, n } = c.req.valid("json");
    const started = performance.now();
    const perChat = Array.from({ length: chats }, (_, i) =>
      Array.from({ length: n }, (_, k) => chatlogBenchRecord(chat + i, offset + k)),
    );
    const added = await Promise.all(
      perChat.map((records, i) =>
        chatObject(c.env, chatlogBenchChat(chat + i)).appendLog(chatlogBenchChat(chat + i), records),
      ),
    );
    await seedD1(c.env.DB, perChat.flat());
    return c.json({
      added: added.reduce((sum, a) => sum + a.added, 0),
      skipped: added.reduce((sum, a) => sum + a.skipped, 0),
      ms: performance.now() - started,
    });
  })
  .post("/sizes", jsonBody(z.object({ chats: ChatList })), async (c) => {
    const { chats } = c.req.valid("json");
    const objects = await Promise.all(chats.map((chat) => chatProbeClient(c.env, chat as ChatKey).size()));
    const d1 = await c.env.DB.prepare("SELECT 1").run();
    return c.json({ objects, d1: d1.meta.size_after });
  })
  .post("/read", jsonBody(ReadSchema), async (c) => {
    const { reader, ...q } = c.req.valid("json");
    return c.json(await chatProbeClient(c.env, reader as ChatKey).read(q));
  });
