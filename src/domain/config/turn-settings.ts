/**
 * The `turn` section of the behaviour settings (docs/settings.md): the persona and how much of the
 * chat, its history and the tools one reply may use.
 */
import { z } from "zod";

export const TurnSettingsSchema = z
  .object({
    persona: z.string().min(1).max(4000),
    /** Recent turns kept in the chat object and put into every prompt. */
    recentTurns: z.number().int().min(0).max(100),
    /** Message-log hits recalled automatically per turn. */
    historyRecall: z.number().int().min(0).max(50),
    /** Prompt budget for the mandatory block and recall, in estimated tokens. */
    contextTokenBudget: z.number().int().min(256).max(200_000),
    maxToolRounds: z.number().int().min(0).max(8),
    maxReplyChars: z.number().int().min(50).max(4000),
    maxOutputTokens: z.number().int().min(32).max(8192),
  })
  .strict();

export type TurnSettings = z.infer<typeof TurnSettingsSchema>;

export const DEFAULT_TURN_SETTINGS: TurnSettings = {
  persona:
    "你是 Akasha，一个住在 QQ 里、记性很好的助手。回答简洁、友好，用提问者的语言回答。" +
    "只依据给你的上下文陈述事实；不确定时直说。不要透露其他聊天或其他人的私事。",
  recentTurns: 12,
  historyRecall: 3,
  contextTokenBudget: 3000,
  maxToolRounds: 3,
  maxReplyChars: 1500,
  maxOutputTokens: 800,
};
