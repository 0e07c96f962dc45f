/**
 * Messages of this chat written into its log from outside the object: a message another chat's
 * `send_message` relayed here, OneBot history fetched later, a copy of the chat's D1 rows. The
 * whole call is refused when a record belongs to another chat, so a wrong caller writes nothing;
 * the rules every log write keeps hold here too: masked (message-record.ts `maskedRecord`), a
 * left-out person's messages dropped (privacy.doNotRecord), nothing while storage is off.
 */
import { type ChatKey, parseChatKey } from "../domain/chat/chat-address";
import type { Settings } from "../domain/config/settings";
import { type MessageRecord, maskedRecord } from "../domain/history/message-record";
import { isLeftOut } from "../domain/privacy/left-out";
import { type LogHome, logHomeOf } from "./chat-log-home";
import type { ChatMeta } from "./chat-meta";
import type { ChatInfo } from "./dream-runner";
import type { LocalLog } from "./local-log";

/**
 * What was written, and where the chat's log is read from: while that is still D1
 * (chat-log-home.ts), the caller writes the same records to D1 too.
 */
export type AppendOutcome = { readonly added: number; readonly skipped: number; readonly home: LogHome };

export function appendToLog(
  d: { storage: DurableObjectStorage; meta: ChatMeta; log: LocalLog },
  chat: ChatKey,
  records: readonly MessageRecord[],
  settings: Settings,
): AppendOutcome {
  const address = parseChatKey(chat);
  if (!address.ok) throw new Error(`not a chat key: ${chat}`);
  const known = d.meta.get<ChatInfo>("chat")?.key;
  if (known !== undefined && known !== chat) throw new Error(`this object holds ${known}, not ${chat}`);
  const stranger = records.find((r) => r.chatKey !== chat);
  if (stranger) throw new Error(`a record of ${stranger.chatKey} is not ${chat}'s: nothing written`);
  return d.storage.transactionSync(() => {
    if (known === undefined) d.meta.set("chat", { key: chat, ...address.value });
    let added = 0;
    for (const r of records) if (!isLeftOut(settings, r.accountKey) && d.log.append(maskedRecord(r))) added++;
    return { added, skipped: records.length - added, home: logHomeOf(d.storage.sql) };
  });
}
