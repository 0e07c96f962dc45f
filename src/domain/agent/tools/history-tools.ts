/**
 * The history tools over the message log. `history_search` and `history_recent` read the
 * current chat, or another chat of its domain named by `chat` (the guard checks the target;
 * these check the grant again, and never read a private chat from a group or channel turn:
 * cross-chat-read.ts). `search_chat_history` and `recall_cross_chat` read every chat the gate
 * allows from here at once; no parameter of theirs names or widens that set. Days named in
 * the question ("昨天", "上周三", "5月3日", "last Friday") and senders' display names are read
 * by `askHistory`, against the turn's time in `calendar.timeZone`; times are shown in that zone too.
 * Each chat's log lives in its own object: a chat that could not be read this time is said so
 * (unread-note.ts), never shown as a chat with nothing in it.
 */
import { UnreadError } from "../../history/fan-out";
import { askHistory, newestFirst, type ResolvedHistoryQuery } from "../../history/history-query";
import type { HistoryHit, HistorySearch, UnreadChat } from "../../history/history-search-port";
import { localDay } from "../../kernel/local-day";
import { formatLocalTime } from "../../kernel/local-time";
import { readableChatsOf, readTargetOf } from "../cross-chat-read";
import { type Tool, type ToolResult, toolError, toolOk } from "../tool";
import type { TurnContext } from "../turn-context";
import type { TurnServices } from "../turn-services";
import { unreadChatError, unreadNote } from "./unread-note";

const CHAT_PARAM = {
  type: "string",
  description:
    "要查的聊天地址（可选，默认当前聊天；只能是同一聊天域内的聊天，见 find_chat；在群聊里不能查私聊）",
} as const;

const FILTER_PARAMS = {
  since: {
    type: "string",
    description:
      "只看这个时间及之后的消息：YYYY-MM-DD、ISO 时间，或“昨天”“上周三”“5月3日”“last Friday”这样的说法",
  },
  until: { type: "string", description: "只看这个时间之前的消息（同上；一天的说法表示到那天结束）" },
  sender: { type: "string", description: "只看这个昵称（群名片）的人发的消息" },
} as const;

/**
 * Several chats at once: at most this many are read, and this many matches shown; the chats
 * past it are named in the answer as not read.
 */
const MAX_CHATS = 20;
/** Daily summaries recall_cross_chat adds after the matching turns. */
const SUMMARY_HITS = 3;

function formatHit(hit: HistoryHit, timeZone: string, withChat = false): string {
  // In the zone dates are read in, so that "昨天" and the times shown agree.
  const when = formatLocalTime(hit.ts, timeZone);
  const who = hit.direction === "out" ? "我" : (hit.nick ?? "某人");
  return `${withChat ? `(${hit.chatKey}) ` : ""}[${when}] ${who}: ${hit.text}`;
}

function record(args: unknown): Record<string, unknown> {
  return typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {};
}

/** A tool's `limit`: the schema tells the model the same default and bound that `read` applies. */
function limitParam(fallback: number, max: number, description = `最多返回多少条，默认 ${fallback}`) {
  return {
    schema: { type: "integer", minimum: 1, maximum: max, description },
    read(args: unknown): number {
      const value = record(args).limit;
      if (typeof value !== "number" || !Number.isFinite(value)) return fallback;
      return Math.max(1, Math.min(max, Math.trunc(value)));
    },
  } as const;
}

const QUERY_PARAM = { type: "string", description: "要搜索的词语或句子" } as const;
const SEARCH_LIMIT = limitParam(5, 20);
const ACROSS_LIMIT = limitParam(10, 20);
const RECALL_LIMIT = limitParam(8, 20);
const RECENT_LIMIT = limitParam(10, 50, "条数，默认 10");

/** The question's text and optional filters, or why they are unusable. */
function readQuestion(
  args: unknown,
):
  | { ok: true; query: string; since?: string; until?: string; sender?: string }
  | { ok: false; reason: string } {
  const a = record(args);
  if (typeof a.query !== "string" || a.query.trim() === "")
    return { ok: false, reason: "query 必须是非空字符串" };
  const out: { ok: true; query: string; since?: string; until?: string; sender?: string } = {
    ok: true,
    query: a.query,
  };
  for (const key of ["since", "until", "sender"] as const) {
    const value = a[key];
    if (value === undefined || value === null || value === "") continue;
    if (typeof value !== "string") return { ok: false, reason: `${key} 必须是字符串` };
    out[key] = value;
  }
  return out;
}

/** What the search read out of the question, so the model knows what range it saw. */
function describe(r: ResolvedHistoryQuery, timeZone: string): string | null {
  const parts: string[] = [];
  const day = (t: number) => localDay(t, timeZone);
  if (r.since !== undefined || r.until !== undefined) {
    const from = r.since === undefined ? "最早" : day(r.since);
    const to = r.until === undefined ? "现在" : day(r.until - 1);
    parts.push(`时间 ${from} 至 ${to}${r.datePhrase ? `（“${r.datePhrase}”）` : ""}`);
  }
  if (r.senders) parts.push(`发言者 ${r.senders.join("、")}${r.senderFromText ? "（问题里提到的）" : ""}`);
  return parts.length === 0 ? null : `（按${parts.join("，")}查找）`;
}

async function ask(
  args: unknown,
  ctx: TurnContext,
  services: TurnServices,
  chats: readonly string[],
  limit: number,
) {
  const question = readQuestion(args);
  if (!question.ok) return question;
  const { ok: _, ...q } = question;
  return askHistory(services.history, {
    ...q,
    chats,
    reader: ctx.chat.key,
    limit,
    reference: { now: ctx.now, timeZone: ctx.settings.calendar.timeZone },
  });
}

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
 * A search's answer: what it read out of the question, then the hits as `format` shows them in
 * the turn's time zone, or that nothing was found, then the chats it could not read.
 */
function foundOrNone(
  resolved: ResolvedHistoryQuery,
  ctx: TurnContext,
  hits: readonly HistoryHit[],
  format: (timeZone: string) => string,
  unread: readonly UnreadChat[] = [],
): ToolResult {
  const timeZone = ctx.settings.calendar.timeZone;
  const body = hits.length === 0 ? "没有找到相关消息。" : format(timeZone);
  const lines = [describe(resolved, timeZone), body, unreadNote(unread)].filter((l) => l !== null);
  return toolOk(lines.join("\n"));
}

/** The chats past MAX_CHATS, as chats not read. */
const pastCap = (chats: readonly string[]): UnreadChat[] =>
  chats.slice(MAX_CHATS).map((chatKey) => ({ chatKey, reason: "over-cap" }));

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
    return toolOk(lines.join("\n"));
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
    return toolOk(
      hits.length === 0
        ? "还没有消息记录。"
        : hits.map((h) => formatHit(h, ctx.settings.calendar.timeZone)).join("\n"),
    );
  },
};
