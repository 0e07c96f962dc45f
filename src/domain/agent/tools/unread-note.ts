/**
 * What a history tool says when it could not read some of the chats it meant to: how many,
 * and why, so that the model never takes a missing chat for a chat with nothing in it. A
 * chat's address is not named: the count and the reasons are what the answer needs.
 */
import type { UnreadChat, UnreadReason } from "../../history/history-search-port";

const REASONS: readonly (readonly [UnreadReason, string])[] = [
  ["timeout", "超时"],
  ["failed", "出错"],
  ["over-cap", "超出一次能查的聊天数"],
];

/** “（有 2 个聊天这次没有读到：1 个超时，1 个出错；结果可能不完整）”, or null when every chat was read. */
export function unreadNote(unread: readonly UnreadChat[]): string | null {
  const chats = new Map(unread.map((u) => [u.chatKey, u.reason]));
  if (chats.size === 0) return null;
  const counts = REASONS.flatMap(([reason, words]) => {
    const n = [...chats.values()].filter((r) => r === reason).length;
    return n > 0 ? [`${n} 个${words}`] : [];
  });
  return `（有 ${chats.size} 个聊天这次没有读到：${counts.join("，")}；结果可能不完整）`;
}

/** The error of a read of one chat that failed: not “no messages”, which would be untrue. */
export function unreadChatError(chatKey: string, reason: UnreadReason): string {
  const why = reason === "timeout" ? "超时" : "出错";
  return `这次没有读到聊天 ${chatKey} 的消息记录（${why}），这不代表那里没有消息；可以稍后再试。`;
}
