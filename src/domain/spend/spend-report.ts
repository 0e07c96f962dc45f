/** Today's spend against the caps, as the usage admin API, the dashboard and the CLI show it. */
import type { SpendSettings } from "../config/spend-settings";
import type { SpendDay } from "./spend-day";

export type SpendLine = {
  readonly calls: number;
  readonly tokens: number;
  readonly cap: number | null;
  /** Whether the next model call would be refused. */
  readonly capped: boolean;
};

export type SpendReport = {
  readonly timeZone: string;
  readonly day: string;
  readonly start: number;
  readonly end: number;
  readonly chatDailyTokens: number | null;
  readonly globalDailyTokens: number | null;
  readonly global: SpendLine;
  readonly chats: (SpendLine & { readonly chatKey: string })[];
};

const line = (calls: number, tokens: number, cap: number | null): SpendLine => ({
  calls,
  tokens,
  cap,
  capped: cap !== null && tokens >= cap,
});

export function spendReport(
  caps: SpendSettings,
  timeZone: string,
  day: SpendDay,
  today: {
    global: { calls: number; tokens: number };
    chats: readonly { chatKey: string; calls: number; tokens: number }[];
  },
): SpendReport {
  return {
    timeZone,
    day: day.day,
    start: day.start,
    end: day.end,
    chatDailyTokens: caps.chatDailyTokens,
    globalDailyTokens: caps.globalDailyTokens,
    global: line(today.global.calls, today.global.tokens, caps.globalDailyTokens),
    chats: today.chats.map((c) => ({ chatKey: c.chatKey, ...line(c.calls, c.tokens, caps.chatDailyTokens) })),
  };
}
