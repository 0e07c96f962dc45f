/**
 * `search_chat_history`: one search of every chat the gate allows from here at once (in a group
 * or channel turn, no private chat: cross-chat-read.ts), newest first; no parameter of it names
 * or widens that set.
 */
import { newestFirst } from "../../history/history-query";
import { readableChatsOf } from "../cross-chat-read";
import { type Tool, toolError } from "../tool";
import { ask, formatHit, foundOrNone, MAX_CHATS, pastCap } from "./history-answer";
import { FILTER_PARAMS, limitParam, QUERY_PARAM } from "./history-tool-params";

const ACROSS_LIMIT = limitParam(10, 20);

export const searchChatHistoryTool: Tool = {
  spec: {
    name: "search_chat_history",
    description:
      "在这里能访问的所有聊天（当前聊天和同一聊天域内的其他聊天；在群聊里不含私聊）的历史消息中一起搜索，可按时间和发言者筛选，结果按时间从新到旧合并。",
    parameters: {
      type: "object",
      properties: {
        query: QUERY_PARAM,
        ...FILTER_PARAMS,
        limit: ACROSS_LIMIT.schema,
      },
      required: ["query"],
      additionalProperties: false,
    },
  },
  requiresAdmin: false,
  scope: "chat_domain",
  async run(args, ctx, services) {
    const limit = ACROSS_LIMIT.read(args);
    const readable = readableChatsOf(args, ctx);
    const answer = await ask(args, ctx, services, readable.slice(0, MAX_CHATS), limit);
    if (!answer.ok) return toolError(answer.reason);
    const hits = newestFirst(answer.value.perChat, limit);
    return foundOrNone(
      answer.value.resolved,
      ctx,
      hits,
      (tz) => hits.map((h) => formatHit(h, tz, true)).join("\n"),
      [...answer.value.unread, ...pastCap(readable)],
    );
  },
};
