/**
 * Local-only routes for the history evaluations (`npm run eval -- locomo | memorybank`): a
 * conversation is written into the live message log through the production record builders
 * and flush (so the log's own tokenization, FTS triggers and sender table index it), and each
 * question is asked through `askHistory` over the production history search — the code
 * `history_search` runs, date and sender resolution included. The baseline is the same
 * search with resolution off: the question's words alone over the same index; `flat` is the
 * live search over the flat log (each message matched alone), as before conversation trees.
 */
import { Hono } from "hono";
import { z } from "zod";
import { historySearch } from "../../composition/common/history-search";
import { d1MessageLog } from "../../composition/common/message-log-writer";
import { loadSettings } from "../../composition/settings/settings-loader";
import type { AccountKey, ChatKey, TargetType } from "../../domain/chat/chat-address";
import { askHistory } from "../../domain/history/history-query";
import { inboundRecord, type MessageRecord, outboundRecord } from "../../domain/history/message-record";
import type { AppEnv } from "../app-env";
import { jsonBody } from "../json-body";

const MessagesSchema = z.object({
  chat: z.string().regex(/^[a-z][a-z0-9_-]*:(group|private):[^\s:]+$/),
  messages: z
    .array(
      z.object({
        id: z.string().min(1),
        ts: z.number().int(),
        speaker: z.string().min(1),
        role: z.enum(["user", "assistant"]),
        text: z.string(),
      }),
    )
    .max(500),
});

const AskSchema = z.object({
  mode: z.enum(["live", "plain", "flat"]),
  /** The words' order alone, whatever reranker the settings give history (the same-run baseline). */
  lexical: z.boolean().optional(),
  limit: z.number().int().min(1).max(100),
  queries: z
    .array(z.object({ id: z.string(), text: z.string(), chat: z.string(), now: z.number().int() }))
    .max(200),
});

/** An inbound event as the platform adapters build it, for one stored utterance. */
function utterance(
  chat: string,
  m: z.infer<typeof MessagesSchema>["messages"][number],
): MessageRecord | null {
  const [channel = "eval", targetType = "group", ...rest] = chat.split(":");
  const userId = m.speaker.replace(/\s+/g, "_");
  return inboundRecord({
    eventId: `EVAL:${chat}:${m.id}`,
    transport: "onebot",
    kind: "message",
    wireType: "EVAL",
    chat: { key: chat as ChatKey, channel, targetType: targetType as TargetType, targetId: rest.join(":") },
    sender: {
      userId,
      account: `${channel}:user:${userId}` as AccountKey,
      displayName: m.speaker,
      role: null,
      unionId: null,
      isBot: false,
    },
    message: {
      id: m.id,
      text: m.text,
      ts: m.ts,
      addressedToBot: false,
      attachments: [],
      quotedMessageId: null,
    },
    deletedMessageId: null,
    reply: { kind: "none" },
    receivedAt: m.ts,
    raw: null,
  });
}

export const evalHistoryRoutes = new Hono<AppEnv>()
  .post("/messages", jsonBody(MessagesSchema), async (c) => {
    const { chat, messages } = c.req.valid("json");
    const records = messages.flatMap((m) => {
      if (m.role === "assistant")
        return [
          outboundRecord({
            transport: "onebot",
            chatKey: chat,
            messageId: m.id,
            ts: m.ts,
            text: m.text,
            botName: m.speaker,
          }),
        ];
      const r = utterance(chat, m);
      return r ? [r] : [];
    });
    const log = d1MessageLog(c.env);
    for (let i = 0; i < records.length; i += 100) {
      await log.flush({ messages: records.slice(i, i + 100), recalls: [], chats: [], usage: [], audit: [] });
    }
    return c.json({ messages: records.length });
  })
  .post("/ask", jsonBody(AskSchema), async (c) => {
    const body = c.req.valid("json");
    const history = historySearch(c.env, {
      flat: body.mode === "flat",
      ...(body.lexical ? { rerank: async () => null } : {}),
    });
    // The zone history_search reads dates in: the deployment's `calendar.timeZone`.
    const { timeZone } = (await loadSettings(c.env)).calendar;
    const started = performance.now();
    const results = [];
    for (const q of body.queries) {
      const answer = await askHistory(history, {
        chats: [q.chat],
        // The evaluation asks each conversation as its own chat.
        reader: q.chat,
        query: q.text,
        limit: body.limit,
        reference: { now: q.now, timeZone },
        resolve: body.mode !== "plain",
      });
      if (!answer.ok) {
        results.push({ id: q.id, error: answer.reason, items: [] });
        continue;
      }
      // In the order history_search returns them: matches, with the turns the pipeline brought
      // around the first ones (`via: "context"`), which the tool shows apart.
      const hits = answer.value.perChat[0]?.hits ?? [];
      const r = answer.value.resolved;
      results.push({
        id: q.id,
        resolved: {
          since: r.since ?? null,
          until: r.until ?? null,
          phrase: r.datePhrase ?? null,
          senders: r.senders ?? null,
        },
        items: hits.map((h) => ({
          message_id: h.messageId,
          ts: h.ts,
          nick: h.nick,
          text: h.text,
          via: h.via ?? "hit",
        })),
      });
    }
    return c.json({ ms: performance.now() - started, results });
  });
