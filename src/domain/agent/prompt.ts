/**
 * Builds the model's messages for a turn (docs/architecture.md#the-turn). The mandatory block comes first and
 * needs no search: persona and rules, pinned memory (chat rules, high-importance items of
 * global and the turn's scopes), the chat's latest summary and the recent turns — within
 * `memory.mandatory.tokenBudget`. Recalled context (memory, history, knowledge) fills what is
 * left of `turn.contextTokenBudget`. The result also says exactly what went in, for the
 * context preview.
 */
import { formatLocalTime, localWeekdayZh } from "../kernel/local-time";
import type { ChatMessage, RecalledItem } from "../model/chat-model";
import { estimateTokens, truncateToTokens } from "../text/token-estimate";
import type { RecentTurn, TurnContext } from "./turn-context";
import type { TurnServices } from "./turn-services";

/** A titled block of context in the system prompt (recalled history, memory, knowledge). */
export type ContextSection = {
  readonly title: string;
  readonly items: readonly RecalledItem[];
};

/** The searched-for-nothing part of the mandatory block that comes from storage. */
export type MandatoryExtras = {
  readonly pinned: readonly RecalledItem[];
  readonly summary: string | null;
  /** The speaker's profile this chat may read (person-profile.ts), as lines; null when none. */
  readonly profile?: string | null;
  /** The summary and the profile may hold items above public; absent: taken as holding some. */
  readonly summaryPrivate?: boolean;
  readonly profilePrivate?: boolean;
};

export interface MandatoryProvider {
  readonly name: string;
  collect(ctx: TurnContext, services: TurnServices): Promise<MandatoryExtras>;
}

export const NO_EXTRAS: MandatoryExtras = { pinned: [], summary: null, profile: null };

/** What a prompt contains, item by item, after budgeting. */
export type PreparedPrompt = {
  readonly messages: ChatMessage[];
  readonly mandatory: {
    readonly persona: string;
    readonly profile: string | null;
    readonly pinned: readonly RecalledItem[];
    readonly summary: string | null;
    readonly recent: readonly RecentTurn[];
    readonly tokens: number;
    /** The summary or the profile that went in may hold items above public (MandatoryExtras). */
    readonly heldPrivate: boolean;
  };
  readonly sections: readonly ContextSection[];
  readonly tokens: number;
};

function speaker(ctx: TurnContext): string {
  return ctx.sender?.displayName ?? ctx.sender?.userId ?? "用户";
}

function chatLine(ctx: TurnContext): string {
  const kind = { private: "私聊", group: "群聊", channel: "频道", dm: "频道私信", unknown: "聊天" }[
    ctx.chat.targetType
  ];
  // The local wall clock with its offset and weekday: "昨天" and "上周三" in the answer are then
  // the days the history tools, the summaries and the dashboard use.
  const { timeZone } = ctx.settings.calendar;
  return `当前是${kind}（${ctx.chat.key}）。时间：${formatLocalTime(ctx.now, timeZone)}，${localWeekdayZh(ctx.now, timeZone)}（${timeZone}）。`;
}

function fitItems(title: string, items: readonly RecalledItem[], budget: number) {
  const kept: RecalledItem[] = [];
  const lines: string[] = [];
  let used = estimateTokens(title) + 2;
  for (const item of items) {
    const line = `- ${item.text}（${item.citation}）`;
    const cost = estimateTokens(line);
    if (used + cost > budget) break;
    lines.push(line);
    kept.push(item);
    used += cost;
  }
  return kept.length === 0
    ? { text: "", used: 0, kept }
    : { text: `## ${title}\n${lines.join("\n")}`, used, kept };
}

export function buildPrompt(
  ctx: TurnContext,
  extras: MandatoryExtras,
  sections: readonly ContextSection[],
): PreparedPrompt {
  const total = ctx.settings.turn.contextTokenBudget;
  const mandatoryBudget = Math.min(total, ctx.settings.memory.mandatory.tokenBudget);
  const current = truncateToTokens(ctx.text, Math.max(64, Math.floor(total / 4)));
  const currentTokens = estimateTokens(current);

  // Mandatory block: persona and chat line always; then pinned items, summary, recent turns.
  const persona = ctx.settings.turn.persona;
  const system = [persona, chatLine(ctx)];
  let mandatoryUsed = system.reduce((n, s) => n + estimateTokens(s), 0);
  const room = () => Math.max(0, mandatoryBudget - mandatoryUsed - currentTokens);
  let profile: string | null = null;
  if (extras.profile) {
    const text = truncateToTokens(extras.profile, Math.floor(room() / 4));
    if (text && text !== "…") {
      profile = text;
      const block = `## 关于${speaker(ctx)}\n${text}`;
      system.push(block);
      mandatoryUsed += estimateTokens(block);
    }
  }
  const pinned = fitItems("重要记忆", extras.pinned, Math.floor(room() / 2));
  if (pinned.text) {
    system.push(pinned.text);
    mandatoryUsed += pinned.used;
  }
  let summary: string | null = null;
  if (extras.summary) {
    const text = truncateToTokens(extras.summary, Math.floor(room() / 3));
    if (text && text !== "…") {
      summary = text;
      system.push(`## 之前的对话摘要\n${text}`);
      mandatoryUsed += estimateTokens(text) + 6;
    }
  }
  const recent = fitRecent(ctx.recent, room());
  mandatoryUsed += recent.reduce((n, t) => n + estimateTokens(t.text) + 4, 0);

  // Recall: what the budget has left, each section at most half of what remains.
  const pinnedIds = new Set(pinned.kept.map((i) => i.meta?.nodeId).filter(Boolean));
  let remaining = Math.max(0, total - mandatoryUsed - currentTokens);
  const included: ContextSection[] = [];
  for (const section of sections) {
    const items = section.items.filter((i) => !i.meta || !pinnedIds.has(i.meta.nodeId));
    const rendered = fitItems(section.title, items, Math.floor(remaining / 2));
    if (!rendered.text) continue;
    system.push(rendered.text);
    remaining -= rendered.used;
    included.push({ title: section.title, items: rendered.kept });
  }

  const messages: ChatMessage[] = [
    { role: "system", content: system.join("\n\n") },
    ...recent.map(toMessage),
    { role: "user", content: ctx.chat.targetType === "private" ? current : `${speaker(ctx)}: ${current}` },
  ];
  return {
    messages,
    mandatory: {
      persona,
      profile,
      pinned: pinned.kept,
      summary,
      recent,
      tokens: mandatoryUsed,
      heldPrivate:
        (summary !== null && extras.summaryPrivate !== false) ||
        (profile !== null && extras.profilePrivate !== false),
    },
    sections: included,
    tokens: messages.reduce((n, m) => n + estimateTokens(m.content), 0),
  };
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
