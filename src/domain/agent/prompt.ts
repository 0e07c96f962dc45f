/**
 * Builds the model's messages for a turn: persona and rules first, then recalled context,
 * then the recent turns, then the message being answered — recall and history trimmed to
 * the token budget, oldest first out.
 */
import type { ChatMessage, RecalledItem } from "./chat-model";
import { estimateTokens, truncateToTokens } from "./token-estimate";
import type { RecentTurn, TurnContext } from "./turn-context";

/** A titled block of context in the system prompt (recalled history, memory, knowledge). */
export type ContextSection = {
  readonly title: string;
  readonly items: readonly RecalledItem[];
};

function speaker(ctx: TurnContext): string {
  return ctx.sender?.displayName ?? ctx.sender?.userId ?? "用户";
}

function chatLine(ctx: TurnContext): string {
  const kind = { private: "私聊", group: "群聊", channel: "频道", dm: "频道私信", unknown: "聊天" }[
    ctx.chat.targetType
  ];
  return `当前是${kind}（${ctx.chat.key}）。时间：${new Date(ctx.now).toISOString()}。`;
}

function renderSection(section: ContextSection, budget: number): { text: string; used: number } {
  const lines: string[] = [];
  let used = estimateTokens(section.title) + 2;
  for (const item of section.items) {
    const line = `- ${item.text}（${item.citation}）`;
    const cost = estimateTokens(line);
    if (used + cost > budget) break;
    lines.push(line);
    used += cost;
  }
  return lines.length === 0
    ? { text: "", used: 0 }
    : { text: `## ${section.title}\n${lines.join("\n")}`, used };
}

export function buildPrompt(ctx: TurnContext, sections: readonly ContextSection[]): ChatMessage[] {
  let budget = ctx.settings.turn.contextTokenBudget;
  const system = [ctx.settings.turn.persona, chatLine(ctx)];
  budget -= system.reduce((n, s) => n + estimateTokens(s), 0);
  for (const section of sections) {
    const rendered = renderSection(section, Math.max(0, Math.floor(budget / 2)));
    if (rendered.text) {
      system.push(rendered.text);
      budget -= rendered.used;
    }
  }
  const current = truncateToTokens(ctx.text, Math.max(64, Math.floor(budget / 2)));
  budget -= estimateTokens(current);
  const history = fitRecent(ctx.recent, budget);
  return [
    { role: "system", content: system.join("\n\n") },
    ...history.map(toMessage),
    { role: "user", content: ctx.chat.targetType === "private" ? current : `${speaker(ctx)}: ${current}` },
  ];
}

/** Newest turns that fit the budget, returned oldest first. */
function fitRecent(recent: readonly RecentTurn[], budget: number): RecentTurn[] {
  const kept: RecentTurn[] = [];
  let used = 0;
  for (let i = recent.length - 1; i >= 0; i--) {
    const turn = recent[i];
    if (!turn) continue;
    const cost = estimateTokens(turn.text) + 4;
    if (used + cost > budget) break;
    kept.unshift(turn);
    used += cost;
  }
  return kept;
}

function toMessage(turn: RecentTurn): ChatMessage {
  return turn.role === "assistant"
    ? { role: "assistant", content: turn.text }
    : { role: "user", content: turn.name ? `${turn.name}: ${turn.text}` : turn.text };
}
