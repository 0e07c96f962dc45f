/** Seeds message-log rows for one local day through the same writer the chat objects flush with. */
import { env } from "cloudflare:workers";
import { d1MessageLog } from "@src/composition/common/message-log-writer";
import type { MessageRecord } from "@src/domain/history/message-record";
import { chatIndexText } from "@src/domain/text/chat-search-tokens";

export type SeedLine = { user: string; nick?: string; text: string; id?: string; replyTo?: string };

/** Writes `lines` into `chatKey`, one minute apart from `start`. Returns the message ids. */
export async function seedDay(chatKey: string, start: number, lines: readonly SeedLine[]): Promise<string[]> {
  const records = dayRecords(chatKey, start, lines);
  await d1MessageLog(env).flush({ messages: records, recalls: [], chats: [], usage: [], audit: [] });
  return records.map((r) => r.messageId);
}

/** The log records of `lines` in `chatKey`, one minute apart from `start`. */
export function dayRecords(chatKey: string, start: number, lines: readonly SeedLine[]): MessageRecord[] {
  return lines.map((l, i) => logRecord(chatKey, start + i * 60_000, l));
}

/** The log record of one inbound `line` in `chatKey` at `ts`, its text indexed for the chat's search. */
export function logRecord(chatKey: string, ts: number, l: SeedLine): MessageRecord {
  return {
    transport: chatKey.split(":")[0] ?? "qq",
    chatKey,
    messageId: l.id ?? `M${crypto.randomUUID()}`,
    ts,
    userId: l.user,
    accountKey: `${chatKey.split(":")[0]}:user:${l.user}`,
    nick: l.nick ?? null,
    text: l.text,
    tokens: chatIndexText(chatKey, l.text),
    rawJson: null,
    direction: "in",
    replyTo: l.replyTo ?? null,
  };
}
