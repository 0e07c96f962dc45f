/**
 * Whether a turn's words may repeat what must stay in this chat (docs/invariants.md#one-read-gate).
 * A chat's own turns read its marked messages and its items above public; what the bot says
 * there may repeat them. Such a reply is marked like them: logged as marked, kept so in the
 * recent turns, journaled at private — so no other chat's read serves it, no daily summary
 * quotes it and a dreaming run that holds it is bounded by it. The turn holds such words when
 * its message (by its words, or by its mark in the chat's log: TurnContext.nearRequest), its
 * prompt or a tool's result did; what cannot say is taken as holding some.
 */
import { privacyMarkOf } from "../history/privacy-mark";
import type { RecalledItem } from "../model/chat-model";
import type { PreparedPrompt } from "./prompt";
import type { Tool, ToolResult } from "./tool";
import type { RecentTurn } from "./turn-context";

/** Sources whose items are nobody's words: knowledge collections are shared on purpose. */
const PUBLIC_SOURCES: ReadonlySet<string> = new Set(["knowledge", "knowledge-catalogue"]);

export function itemHolds(item: RecalledItem): boolean {
  if (item.marked !== undefined) return item.marked;
  if (item.meta) return item.meta.sensitivity !== "public";
  return !PUBLIC_SOURCES.has(item.source);
}

/** A person's turn by its own words (a request marks it); the bot's by what its turn held. */
export function recentHolds(turn: RecentTurn): boolean {
  return turn.role === "assistant" ? turn.held === true : privacyMarkOf(turn.text) > 0;
}

/** The message being answered and everything its prompt holds. */
export function promptHolds(current: string, prepared: PreparedPrompt): boolean {
  const m = prepared.mandatory;
  return (
    privacyMarkOf(current) > 0 ||
    m.heldPrivate ||
    m.pinned.some(itemHolds) ||
    m.recent.some(recentHolds) ||
    prepared.sections.some((s) => s.items.some(itemHolds))
  );
}

/** What a tool showed: as it says; a tool that reads nothing showed nothing; else taken as held. */
export function toolHolds(tool: Tool, result: ToolResult): boolean {
  if (!result.ok) return false;
  if (result.marked !== undefined) return result.marked;
  return tool.reads !== "nothing";
}
