/**
 * The message log as writers outside a chat's object write it (OneBot history fetched later, a
 * message `send_message` relayed to another chat): each chat's records go to its own object's
 * log (ChatSession.appendLog, which masks them again and keeps the do-not-record and storage
 * rules); a chat whose log is still read from D1 (not yet migrated, chat-log-home.ts) gets them
 * in D1 too. Both writes are idempotent on the log's unique key, so a retried batch adds nothing.
 */
import { chatKeyOf, parseChatKey } from "../../domain/chat/chat-address";
import type { FlushBatch, MessageLog } from "../../domain/history/message-log";
import type { MessageRecord } from "../../domain/history/message-record";
import { chatObject } from "./chat-stub";
import { d1MessageLog } from "./message-log-writer";

/**
 * Writes each chat's records into its object's log, one call per chat; throws on the first
 * failure. Returns the records of chats whose log is still read from D1: those go there too.
 */
export async function appendToChatObjects(
  env: Env,
  records: readonly MessageRecord[],
): Promise<MessageRecord[]> {
  const stillInD1: MessageRecord[] = [];
  const byChat = new Map<string, MessageRecord[]>();
  for (const r of records) byChat.set(r.chatKey, [...(byChat.get(r.chatKey) ?? []), r]);
  for (const [chat, rows] of byChat) {
    const address = parseChatKey(chat);
    if (!address.ok) throw new Error(`not a chat key: ${chat}`);
    const key = chatKeyOf(address.value);
    const { home } = await chatObject(env, key).appendLog(key, rows);
    if (home === "d1") stillInD1.push(...rows);
  }
  return stillInD1;
}

export function chatLogWriter(env: Env): MessageLog {
  const d1 = d1MessageLog(env);
  return {
    async flush(batch: FlushBatch): Promise<void> {
      const stillInD1 = await appendToChatObjects(env, batch.messages);
      await d1.flush({ ...batch, messages: stillInD1 });
    },
  };
}
