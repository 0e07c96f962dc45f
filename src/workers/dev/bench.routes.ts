/**
 * Local-only measurement routes used by `npm run bench` (mounted under /dev, so they do not
 * exist outside local mode). Timing happens inside the Worker so that the HTTP hop does not
 * blur what is measured.
 */
import { Hono } from "hono";
import { z } from "zod";
import { d1MessageLog } from "../../composition/common/message-log-writer";
import { chatProbeClient } from "../../composition/dev/chat-probe-client";
import type { AccountKey, ChatKey } from "../../domain/chat/chat-address";
import { inboundRecord } from "../../domain/history/message-record";
import type { AppEnv } from "../app-env";
import { jsonBody } from "../json-body";

const IngestSchema = z.object({
  mode: z.enum(["batched", "single"]),
  n: z.number().int().min(1).max(1000),
  batchRows: z.number().int().min(1).max(500).default(200),
  chat: z.string().regex(/^bench:group:[A-Za-z0-9]+$/),
  offset: z.number().int().min(0).default(0),
});

const SAMPLE = [
  "明天下午三点在会议室开会",
  "今天的午饭吃什么好呢",
  "Vue 的组件通信有哪些方式",
  "记得周五交周报",
  "哈哈哈哈 [图片]",
];

export const benchRoutes = new Hono<AppEnv>().post("/ingest", jsonBody(IngestSchema), async (c) => {
  const { mode, n, batchRows, chat, offset } = c.req.valid("json");
  const records = Array.from({ length: n }, (_, i) => {
    const k = offset + i;
    const text = `${SAMPLE[k % SAMPLE.length]} #${k}`;
    return inboundRecord({
      eventId: `bench-${k}`,
      transport: "qq",
      kind: "message",
      wireType: "BENCH",
      // The schema above admits only bench:group:<id>, a well-formed chat key.
      chat: {
        key: chat as ChatKey,
        channel: "bench",
        targetType: "group",
        targetId: chat.split(":")[2] ?? "",
      },
      sender: {
        userId: `u${k % 50}`,
        account: `bench:user:u${k % 50}` as AccountKey,
        displayName: null,
        role: null,
        unionId: null,
        isBot: false,
      },
      message: {
        id: `m${k}`,
        text,
        ts: 1_700_000_000_000 + k,
        addressedToBot: false,
        attachments: [],
        quotedMessageId: null,
      },
      deletedMessageId: null,
      reply: { kind: "none" },
      receivedAt: 0,
      raw: { k },
    });
  }).filter((r) => r !== null);
  const log = d1MessageLog(c.env);
  const started = performance.now();
  if (mode === "batched") {
    for (let i = 0; i < records.length; i += batchRows) {
      await log.flush({
        messages: records.slice(i, i + batchRows),
        recalls: [],
        chats: [],
        usage: [],
        audit: [],
      });
    }
  } else {
    for (const record of records) await log.insertOne(record);
  }
  // Date.now() only advances across I/O in workerd, which is exactly what is being timed.
  const ms = performance.now() - started;
  return c.json({ mode, n: records.length, ms });
});

const ChatWorkSchema = z.object({
  chats: z
    .array(z.string().regex(/^qq:group:[A-Za-z0-9]+$/))
    .min(1)
    .max(100),
});

/** The webhook bench's chats: their objects' SQLite statements and alarm runs, summed. */
benchRoutes.post("/chat-work", jsonBody(ChatWorkSchema), async (c) => {
  const { chats } = c.req.valid("json");
  const all = await Promise.all(chats.map((chat) => chatProbeClient(c.env, chat as ChatKey).work()));
  return c.json({
    chats: all.length,
    statements: all.reduce((n, w) => n + w.statements, 0),
    alarms: all.reduce((n, w) => n + w.alarms, 0),
  });
});
