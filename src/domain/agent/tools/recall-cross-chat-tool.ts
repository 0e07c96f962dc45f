/**
 * `recall_cross_chat`: what was said in the other chats the gate allows from here (in a group or
 * channel turn, no private chat: cross-chat-read.ts), all read at once, with their daily
 * summaries; no parameter of it names or widens that set.
 */
import type { HistoryHit, HistorySearch, UnreadChat } from "../../history/history-search-port";
import { readableChatsOf } from "../cross-chat-read";
import { type Tool, toolError, toolOk } from "../tool";
import { anyMarked, formatHit, MAX_CHATS, pastCap } from "./history-answer";
import { limitParam, readQuestion } from "./history-tool-params";
import { unreadNote } from "./unread-note";

const RECALL_LIMIT = limitParam(8, 20);
/** Daily summaries recall_cross_chat adds after the matching turns. */
const SUMMARY_HITS = 3;

export const recallCrossChatTool: Tool = {
  spec: {
    name: "recall_cross_chat",
    description:
      "回想同一聊天域内其他聊天（在群聊里不含私聊）里说过的相关内容：一次查询所有这些聊天，各聊天的结果轮流排列，并附上相关的每日摘要。",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string", description: "要回想的内容" },
        limit: RECALL_LIMIT.schema,
      },
      required: ["query"],
      additionalProperties: false,
    },
  },
  requiresAdmin: false,
  scope: "chat_domain",
  async run(args, ctx, services) {
    const question = readQuestion(args);
    if (!question.ok) return toolError(question.reason);
    const readable = readableChatsOf(args, ctx).filter((c) => c !== ctx.chat.key);
    const others = readable.slice(0, MAX_CHATS);
    if (others.length === 0) return toolOk("这里没有可以一起回想的其他聊天（见 find_chat）。");
    // Two legs over the same chats: the raw turns (each chat's best first, interleaved
    // round-robin) and the chats' daily summaries, which remember days whose turns the log
    // may no longer match word for word.
    const [found, summaries] = await Promise.all([
      searchAcrossChats(services.history, {
        chatKeys: others,
        reader: ctx.chat.key,
        text: question.query,
        limit: RECALL_LIMIT.read(args),
      }),
      services.history.searchSummaries?.({ chatKeys: others, text: question.query, limit: SUMMARY_HITS }) ??
        [],
    ]);
    const allowed = new Set<string>(others);
    const matches = found.hits.filter((h) => h.via !== "context" && allowed.has(h.chatKey));
    const digests = summaries.filter((s) => allowed.has(s.chatKey));
    const lines =
      matches.length === 0 && digests.length === 0
        ? ["其他聊天里没有找到相关内容。"]
        : matches.map((h) => formatHit(h, ctx.settings.calendar.timeZone, true));
    if (digests.length > 0)
      lines.push(
        "（相关的每日摘要）",
        ...digests.map((d) => `  (${d.chatKey}) [${d.day ?? "某天"} 摘要] ${d.text}`),
      );
    const note = unreadNote([...found.unread, ...pastCap(readable)]);
    if (note) lines.push(note);
    // Other chats are read through the gate: what comes back may be said here. A daily
    // summary is written from unmarked messages only.
    return { ...toolOk(lines.join("\n")), marked: anyMarked(matches) };
  },
};

/** Matches in several chats and the chats not read, from a history that says, else all read. */
async function searchAcrossChats(
  history: HistorySearch,
  q: Parameters<HistorySearch["searchAcross"]>[0],
): Promise<{ hits: readonly HistoryHit[]; unread: readonly UnreadChat[] }> {
  if (history.searchAcrossChats) return history.searchAcrossChats(q);
  return { hits: await history.searchAcross(q), unread: [] };
}
