/**
 * `history_search`: a full-text search of the current chat, or of another chat of its domain
 * named by `chat` (the guard checks the target; this checks the grant again, and never reads a
 * private chat from a group or channel turn: cross-chat-read.ts).
 */
import type { ResolvedHistoryQuery } from "../../history/history-query";
import type { HistoryHit } from "../../history/history-search-port";
import { readTargetOf } from "../cross-chat-read";
import { type Tool, toolError } from "../tool";
import { ask, formatHit, foundOrNone } from "./history-answer";
import { CHAT_PARAM, FILTER_PARAMS, limitParam, QUERY_PARAM } from "./history-tool-params";
import { unreadChatError } from "./unread-note";

const SEARCH_LIMIT = limitParam(5, 20);

export const historySearchTool: Tool = {
  spec: {
    name: "history_search",
    description:
      "在当前聊天（或同一聊天域内的另一个聊天）的历史消息中全文搜索（中文分词），可按时间和发言者筛选；问题里提到的日子（“昨天”“上周三”“5月3日”）和群友昵称会自动识别。返回最相关的消息及时间，以及命中消息前后的几条上下文。",
    parameters: {
      type: "object",
      properties: {
        query: QUERY_PARAM,
        ...FILTER_PARAMS,
        chat: CHAT_PARAM,
        limit: SEARCH_LIMIT.schema,
      },
      required: ["query"],
      additionalProperties: false,
    },
  },
  requiresAdmin: false,
  scope: "chat_domain",
  reads: "target",
  async run(args, ctx, services) {
    const target = readTargetOf(args, ctx);
    if (!target.ok) return toolError(target.reason);
    const answer = await ask(args, ctx, services, [target.chat], SEARCH_LIMIT.read(args));
    if (!answer.ok) return toolError(answer.reason);
    const missed = answer.value.unread[0];
    if (missed) return toolError(unreadChatError(target.chat, missed.reason));
    const hits = answer.value.perChat[0]?.hits ?? [];
    return foundOrNone(answer.value.resolved, ctx, hits, (tz) =>
      formatSearch(hits, answer.value.resolved, tz),
    );
  },
};

/**
 * Matches best first — those of a time the question named, then the others, set apart — then
 * the turns around them (context) in time order, set apart.
 */
function formatSearch(hits: readonly HistoryHit[], resolved: ResolvedHistoryQuery, timeZone: string): string {
  const matches = hits.filter((h) => h.via !== "context");
  const context = hits.filter((h) => h.via === "context").sort((a, b) => a.ts - b.ts || a.seq - b.seq);
  const inRange = (h: HistoryHit) =>
    (resolved.since === undefined || h.ts >= resolved.since) &&
    (resolved.until === undefined || h.ts < resolved.until);
  const lines = matches.filter(inRange).map((h) => formatHit(h, timeZone));
  const others = matches.filter((h) => !inRange(h));
  if (others.length > 0)
    lines.push("（所问时间以外的相关消息）", ...others.map((h) => formatHit(h, timeZone)));
  if (context.length > 0)
    lines.push("（命中消息前后的上下文）", ...context.map((h) => `  ${formatHit(h, timeZone)}`));
  return lines.join("\n");
}
