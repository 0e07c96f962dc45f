/**
 * The one-time notice in a group whose log is not kept (docs/storage.md#messages): the bot
 * answers there, but remembers nothing of it — no history, summaries or dreaming — and a new
 * owner would not know why. The chat object says this once per chat, after its first answer by the model (or to /help).
 */
import { isOneToOne } from "../chat/chat-address";
import { isStored, type Settings } from "../config/settings";

export const FOLLOW_NOTICE =
  "提示：本群未开启记忆，我不会保存这里的聊天记录。管理员在群里发送 /follow 即可开启（或运行 npm run akasha -- follow add <本群标识>，发 /whoami 可查看标识）。";

/**
 * The notice for this turn's chat, or null: not a shared chat, already followed, or a command
 * answered (a command's reply says what it did; only `/help` gets the notice with it).
 */
export function followNoticeFor(
  settings: Settings,
  chat: { readonly key: string; readonly targetType: string },
  command: string | null,
): string | null {
  if (isOneToOne(chat.targetType) || chat.targetType === "unknown") return null;
  if (isStored(settings, chat.key, chat.targetType)) return null;
  if (command !== null && command !== "help") return null;
  return FOLLOW_NOTICE;
}
