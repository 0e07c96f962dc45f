/**
 * `history_search` and `history_recent`: the message log of the current chat, or of another
 * chat of its domain named by `chat` (the guard checks the target; these check the grant again).
 */
import type { HistoryHit } from "../../history/history-search-port";
import { targetChatOf } from "../chat-grant";
import { type Tool, toolError, toolOk } from "../tool";

const CHAT_PARAM = {
  type: "string",
  description: "要查的聊天地址（可选，默认当前聊天；只能是同一聊天域内的聊天，见 find_chat）",
} as const;

function formatHit(hit: HistoryHit): string {
  const when = new Date(hit.ts).toISOString().slice(0, 16).replace("T", " ");
  const who = hit.direction === "out" ? "我" : (hit.nick ?? "某人");
  return `[${when}] ${who}: ${hit.text}`;
}

function readLimit(args: unknown, fallback: number, max: number): number {
  const value =
    typeof args === "object" && args !== null ? (args as Record<string, unknown>).limit : undefined;
  if (typeof value !== "number" || !Number.isFinite(value)) return fallback;
  return Math.max(1, Math.min(max, Math.trunc(value)));
}

export const historySearchTool: Tool = {
  spec: {
    name: "history_search",
    description:
      "在当前聊天（或同一聊天域内的另一个聊天）的历史消息中全文搜索（中文分词）。返回最相关的消息及时间，以及命中消息前后的几条上下文。",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string", description: "要搜索的词语或句子" },
        chat: CHAT_PARAM,
        limit: { type: "integer", minimum: 1, maximum: 20, description: "最多返回多少条，默认 5" },
      },
      required: ["query"],
      additionalProperties: false,
    },
  },
  requiresAdmin: false,
  scope: "chat_domain",
  async run(args, ctx, services) {
    const target = targetChatOf(args, ctx);
    if (!target.ok) return toolError(target.reason);
    const query =
      typeof args === "object" && args !== null ? (args as Record<string, unknown>).query : undefined;
    if (typeof query !== "string" || query.trim() === "") return toolError("query 必须是非空字符串");
    const hits = await services.history.search({
      chatKey: target.chat,
      text: query,
      limit: readLimit(args, 5, 20),
    });
    return toolOk(hits.length === 0 ? "没有找到相关消息。" : formatSearch(hits));
  },
};

/** Matches best first, then the turns around them (context) in time order, set apart. */
function formatSearch(hits: readonly HistoryHit[]): string {
  const matches = hits.filter((h) => h.via !== "context");
  const context = hits.filter((h) => h.via === "context").sort((a, b) => a.ts - b.ts || a.seq - b.seq);
  const lines = matches.map(formatHit);
  if (context.length > 0) lines.push("（命中消息前后的上下文）", ...context.map((h) => `  ${formatHit(h)}`));
  return lines.join("\n");
}

export const historyRecentTool: Tool = {
  spec: {
    name: "history_recent",
    description: "列出当前聊天（或同一聊天域内的另一个聊天）最近的消息（从新到旧）。",
    parameters: {
      type: "object",
      properties: {
        limit: { type: "integer", minimum: 1, maximum: 50, description: "条数，默认 10" },
        chat: CHAT_PARAM,
      },
      additionalProperties: false,
    },
  },
  requiresAdmin: false,
  scope: "chat_domain",
  async run(args, ctx, services) {
    const target = targetChatOf(args, ctx);
    if (!target.ok) return toolError(target.reason);
    const hits = await services.history.recent({ chatKey: target.chat, limit: readLimit(args, 10, 50) });
    return toolOk(hits.length === 0 ? "还没有消息记录。" : hits.map(formatHit).join("\n"));
  },
};
