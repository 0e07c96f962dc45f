/**
 * One chat's summary of one local day (docs/memory.md#daily-summaries): through the chat model
 * when one is configured, else — or when the model fails — extractively from the log. The
 * summary reads only that chat's messages and lands only in that chat's scope; credentials
 * are masked again on the way out, whatever wrote the text.
 */
import { isOneToOne } from "../chat/chat-address";
import type { SummarySettings } from "../config/summary-settings";
import type { Logger } from "../kernel/logger";
import { memoryNodeId } from "../memory/memory";
import { dreamSensitivity, neverStored } from "../memory/sensitivity";
import type { Sensitivity } from "../memory/sensitivity-level";
import type { ChatModel, ModelResponse, UsageRecord } from "../model/chat-model";
import { containsSensitiveData, maskSensitiveData } from "../privacy/credentials";
import { truncateToTokens } from "../text/token-estimate";
import type { DayMessage } from "./day-message";
import { clipQuote, extractiveSummary } from "./extractive-summary";

/** Transcript tokens sent to the model at most. */
const TRANSCRIPT_TOKENS = 6000;
const MAX_OUTPUT_TOKENS = 600;

export type ChatDay = {
  readonly chatKey: string;
  readonly targetType: string;
  readonly day: string;
  readonly timeZone: string;
  /** That chat's messages of that day, oldest first. */
  readonly messages: readonly DayMessage[];
};

export type DailySummary = {
  readonly nodeId: string;
  readonly chatKey: string;
  readonly day: string;
  readonly text: string;
  readonly method: "model" | "extractive";
  readonly sensitivity: Sensitivity;
  /** `origin` for a private chat's day (private by origin, docs/memory.md#private-by-origin), else `dream`. */
  readonly sensitivitySource: "dream" | "origin";
  readonly messageIds: readonly string[];
  readonly messageCount: number;
};

export type DailySummaryOutcome = {
  readonly summary: DailySummary | null;
  /** Why there is none: too few messages, nothing summarizable. */
  readonly skipped: string | null;
  readonly usage: UsageRecord | null;
};

/** Deterministic per (chat, day): writing the same day twice is one node. */
export function dailySummaryNodeId(chatKey: string, day: string): string {
  return memoryNodeId("summary:daily", chatKey, day);
}

function kindOf(targetType: string): string {
  return isOneToOne(targetType) ? "私聊" : targetType === "channel" ? "频道" : "群聊";
}

function speaker(m: DayMessage): string {
  return m.direction === "out" ? "机器人" : m.nick || (m.userId ? `用户${m.userId.slice(0, 4)}` : "某人");
}

function header(input: ChatDay): string {
  const people = new Set(input.messages.filter((m) => m.direction === "in").map((m) => m.userId ?? m.nick));
  return `${input.day}（${kindOf(input.targetType)}，${input.messages.length} 条消息，${people.size} 人）`;
}

function clipChars(text: string, max: number): string {
  const chars = [...text.trim()];
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : chars.join("");
}

function extractive(input: ChatDay, settings: SummarySettings): { text: string; ids: string[] } | null {
  // Messages that held a credential (masked on arrival) are never quoted.
  const quotable = input.messages.filter((m) => !neverStored(m.text));
  const { keywords, picked } = extractiveSummary(quotable, settings.extractiveMessages);
  if (picked.length === 0) return null;
  const lines = [
    header(input),
    ...(keywords.length > 0 ? [`话题：${keywords.join("、")}`] : []),
    ...picked.map((m) => `- ${speaker(m)}：${clipQuote(m.text)}`),
  ];
  return { text: clipChars(lines.join("\n"), settings.maxChars), ids: picked.map((m) => m.messageId) };
}

function hhmm(ts: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date(ts));
}

function modelMessages(input: ChatDay, settings: SummarySettings) {
  const transcript = input.messages
    .filter((m) => !m.text.trimStart().startsWith("/"))
    .map((m) => `${hhmm(m.ts, input.timeZone)} ${speaker(m)}: ${m.text}`)
    .join("\n");
  return [
    {
      role: "system" as const,
      content:
        `你为一个${kindOf(input.targetType)}写 ${input.day} 这一天的对话摘要，供以后回忆“我们之前聊过什么”。` +
        `第一行写「话题：」加几个关键词；然后用几句话写聊了什么、有什么结论或约定、谁要做什么。` +
        `只写这段记录里说过的内容，不要编造；不要写密码、令牌、密钥、验证码等凭据；不超过 ${settings.maxChars} 字；用记录的语言。`,
    },
    { role: "user" as const, content: truncateToTokens(transcript, TRANSCRIPT_TOKENS) },
  ];
}

export async function summarizeDay(
  input: ChatDay,
  settings: SummarySettings,
  deps: {
    readonly model: ChatModel | null;
    readonly logger: Logger;
    readonly now: () => number;
    /** The spend caps' say for this chat; a capped chat's day is summarized extractively. */
    readonly mayCallModel?: (chatKey: string) => Promise<boolean>;
  },
): Promise<DailySummaryOutcome> {
  if (input.messages.length < settings.minMessages) {
    return { summary: null, skipped: `fewer than ${settings.minMessages} messages`, usage: null };
  }
  let usage: UsageRecord | null = null;
  let text: string | null = null;
  let ids: string[] = [];
  let method: DailySummary["method"] = "extractive";
  const modelWanted = deps.model !== null && settings.useModel && deps.model.provider !== "offline";
  if (deps.model && modelWanted && (await (deps.mayCallModel?.(input.chatKey) ?? true))) {
    const started = deps.now();
    const response = await deps.model.complete({
      messages: modelMessages(input, settings),
      maxTokens: MAX_OUTPUT_TOKENS,
      temperature: 0.2,
    });
    usage = usageOf(input.chatKey, deps.model, started, deps.now(), response);
    if (response.ok && response.value.text.trim() !== "") {
      text = `${header(input)}\n${clipChars(response.value.text, settings.maxChars)}`;
      ids = input.messages.map((m) => m.messageId);
      method = "model";
    } else {
      deps.logger.warn("daily summary model failed; extractive instead", {
        chat: input.chatKey,
        day: input.day,
        error: response.ok ? "empty answer" : response.error.kind,
      });
    }
  }
  if (text === null) {
    const fallback = extractive(input, settings);
    if (!fallback) return { summary: null, skipped: "nothing to quote", usage };
    text = fallback.text;
    ids = fallback.ids;
  }
  // The log is masked already; a model may still have reconstructed or invented a secret.
  text = maskSensitiveData(text);
  if (containsSensitiveData(text)) return { summary: null, skipped: "credential in summary", usage };
  const privateChat = isOneToOne(input.targetType);
  return {
    summary: {
      nodeId: dailySummaryNodeId(input.chatKey, input.day),
      chatKey: input.chatKey,
      day: input.day,
      text,
      method,
      ...(privateChat
        ? { sensitivity: "private" as const, sensitivitySource: "origin" as const }
        : {
            sensitivity: dreamSensitivity(text, { privateChat: false }),
            sensitivitySource: "dream" as const,
          }),
      messageIds: ids,
      messageCount: input.messages.length,
    },
    skipped: null,
    usage,
  };
}

function usageOf(
  chatKey: string,
  model: ChatModel,
  started: number,
  ended: number,
  response: Awaited<ReturnType<ChatModel["complete"]>>,
): UsageRecord {
  const value: ModelResponse | null = response.ok ? response.value : null;
  return {
    chatKey,
    provider: model.provider,
    model: value?.model ?? model.model,
    purpose: "summary",
    promptTokens: value?.usage.promptTokens ?? null,
    completionTokens: value?.usage.completionTokens ?? null,
    latencyMs: Math.max(0, ended - started),
    ok: response.ok,
    errorKind: response.ok ? null : response.error.kind,
    at: started,
  };
}
