/**
 * `history_recent`: the newest messages of the current chat, or of another chat of its domain
 * named by `chat` (the guard checks the target; this checks the grant again, and never reads a
 * private chat from a group or channel turn: cross-chat-read.ts).
 */
import { UnreadError } from "../../history/fan-out";
import type { HistoryHit } from "../../history/history-search-port";
import { readTargetOf } from "../cross-chat-read";
import { type Tool, toolError, toolOk } from "../tool";
import { anyMarked, formatHit } from "./history-answer";
import { CHAT_PARAM, limitParam } from "./history-tool-params";
import { unreadChatError } from "./unread-note";

const RECENT_LIMIT = limitParam(10, 50, "条数，默认 10");

export const historyRecentTool: Tool = {
  spec: {
    name: "history_recent",
    description: "列出当前聊天（或同一聊天域内的另一个聊天）最近的消息（从新到旧）。",
    parameters: {
      type: "object",
      properties: {
        limit: RECENT_LIMIT.schema,
        chat: CHAT_PARAM,
      },
      additionalProperties: false,
    },
  },
  requiresAdmin: false,
  scope: "chat_domain",
  reads: "target",
  async run(args, ctx, services) {
    const target = readTargetOf(args, ctx);
    if (!target.ok) return toolError(target.reason);
    let hits: HistoryHit[];
    try {
      hits = await services.history.recent({
        chatKey: target.chat,
        reader: ctx.chat.key,
        limit: RECENT_LIMIT.read(args),
      });
    } catch (e) {
      // A log that could not be read is no empty log: the model must not say "no messages".
      if (!(e instanceof UnreadError))
        services.logger.warn("history read failed", { chat: target.chat, error: String(e) });
      return toolError(unreadChatError(target.chat, e instanceof UnreadError ? e.reason : "failed"));
    }
    return {
      ...toolOk(
        hits.length === 0
          ? "还没有消息记录。"
          : hits.map((h) => formatHit(h, ctx.settings.calendar.timeZone)).join("\n"),
      ),
      marked: anyMarked(hits),
    };
  },
};
