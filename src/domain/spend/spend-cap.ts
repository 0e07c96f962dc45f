/**
 * The spend-cap decision: whether a chat may make one more model call today, given the tokens
 * already spent by the chat and by all chats. A call is refused once the day's spend has
 * reached the cap; the call that crosses it is allowed (its size is unknown until it returns),
 * so a day overshoots by at most one call.
 */
import type { SpendSettings } from "../config/spend-settings";

/** Tokens spent today: by this chat and by all chats together (this chat included). */
export type SpendTotals = { readonly chat: number; readonly global: number };

export type SpendVerdict =
  | { readonly allowed: true }
  | {
      readonly allowed: false;
      readonly scope: "chat" | "global";
      readonly used: number;
      readonly cap: number;
    };

export type TokenCounts = { readonly promptTokens: number | null; readonly completionTokens: number | null };

/** What a call counts against a cap: prompt and completion tokens; unreported counts as 0. */
export const tokensOf = (u: TokenCounts): number => (u.promptTokens ?? 0) + (u.completionTokens ?? 0);

export const hasCaps = (caps: SpendSettings): boolean =>
  caps.chatDailyTokens !== null || caps.globalDailyTokens !== null;

export function decideSpend(spent: SpendTotals, caps: SpendSettings): SpendVerdict {
  if (caps.chatDailyTokens !== null && spent.chat >= caps.chatDailyTokens)
    return { allowed: false, scope: "chat", used: spent.chat, cap: caps.chatDailyTokens };
  if (caps.globalDailyTokens !== null && spent.global >= caps.globalDailyTokens)
    return { allowed: false, scope: "global", used: spent.global, cap: caps.globalDailyTokens };
  return { allowed: true };
}

/** The brief answer of a capped turn, in the voice of the bot's other refusals. */
export function cappedReply(verdict: Exclude<SpendVerdict, { allowed: true }>): string {
  return verdict.scope === "chat"
    ? `抱歉，这个聊天今天的模型用量已达上限（${verdict.cap} tokens），明天再聊吧；/help 等命令仍可使用。`
    : `抱歉，今天所有聊天的模型用量已达上限（${verdict.cap} tokens），明天再聊吧；/help 等命令仍可使用。`;
}
