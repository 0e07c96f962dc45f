/**
 * How the history tools ask and answer. Days named in the question ("昨天", "上周三", "5月3日",
 * "last Friday") and senders' display names are read by `askHistory`, against the turn's time in
 * `calendar.timeZone`; times are shown in that zone too. Each chat's log lives in its own object:
 * a chat that could not be read this time is said so (unread-note.ts), never shown as a chat with
 * nothing in it.
 */
import { askHistory, type ResolvedHistoryQuery } from "../../history/history-query";
import type { HistoryHit, UnreadChat } from "../../history/history-search-port";
import { localDay } from "../../kernel/local-day";
import { formatLocalTime } from "../../kernel/local-time";
import { type ToolResult, toolOk } from "../tool";
import type { TurnContext } from "../turn-context";
import type { TurnServices } from "../turn-services";
import { readQuestion } from "./history-tool-params";
import { unreadNote } from "./unread-note";

/**
 * Several chats at once: at most this many are read, and this many matches shown; the chats
 * past it are named in the answer as not read.
 */
export const MAX_CHATS = 20;

/** The chats past MAX_CHATS, as chats not read. */
export const pastCap = (chats: readonly string[]): UnreadChat[] =>
  chats.slice(MAX_CHATS).map((chatKey) => ({ chatKey, reason: "over-cap" }));

export function formatHit(hit: HistoryHit, timeZone: string, withChat = false): string {
  // In the zone dates are read in, so that "昨天" and the times shown agree.
  const when = formatLocalTime(hit.ts, timeZone);
  const who = hit.direction === "out" ? "我" : (hit.nick ?? "某人");
  return `${withChat ? `(${hit.chatKey}) ` : ""}[${when}] ${who}: ${hit.text}`;
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

/** The model's question over `chats`, read against the turn's time and zone. */
export async function ask(
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

/**
 * A search's answer: what it read out of the question, then the hits as `format` shows them in
 * the turn's time zone, or that nothing was found, then the chats it could not read.
 */
export function foundOrNone(
  resolved: ResolvedHistoryQuery,
  ctx: TurnContext,
  hits: readonly HistoryHit[],
  format: (timeZone: string) => string,
  unread: readonly UnreadChat[] = [],
): ToolResult {
  const timeZone = ctx.settings.calendar.timeZone;
  const body = hits.length === 0 ? "没有找到相关消息。" : format(timeZone);
  const lines = [describe(resolved, timeZone), body, unreadNote(unread)].filter((l) => l !== null);
  return { ...toolOk(lines.join("\n")), marked: anyMarked(hits) };
}

/** Whether a hit shown holds words that must stay in their chat (absent: taken as marked). */
export const anyMarked = (hits: readonly HistoryHit[]): boolean => hits.some((h) => h.marked !== false);
