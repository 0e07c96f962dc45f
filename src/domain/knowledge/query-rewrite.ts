/**
 * Follow-up rewrite through the chat model: a question that leans on earlier turns ("那它在服务端
 * 渲染时呢？") becomes one standalone search query, the thing referred to spelled out, before
 * kb_search or the automatic recall run. The call is bounded (output tokens, a deadline),
 * checked against the daily spend caps and recorded like every other model call; on the
 * offline model, with rewriting off, over a cap, or on any failure (error, timeout, an answer
 * that is no query) the deterministic context fusion of follow-up-query.ts is used instead.
 */
import type { QueryRewriteSettings } from "../config/query-rewrite-settings";
import type { Clock } from "../kernel/clock";
import type { ChatModel, ModelError, ModelResponse, UsageRecord } from "../model/chat-model";
import { type EarlierTurn, earlierUserTurns, followUpQuery, isFollowUp } from "./follow-up-query";

/** Purpose recorded in model_usage for a rewrite call. */
export const REWRITE_PURPOSE = "kb-rewrite";

/** A rewrite longer than this is an answer or a ramble, not a query. */
export const MAX_REWRITE_CHARS = 200;

export type QueryRewriteDeps = {
  readonly model: ChatModel;
  readonly clock: Clock;
  /** Resolves after `ms` milliseconds: the rewrite's deadline. */
  readonly after: (ms: number) => Promise<void>;
  /** Whether one more model call is within the daily caps (absent = no caps). */
  readonly mayCall?: () => Promise<boolean>;
  /** Where the call's usage goes (model_usage, and the turn's spend). */
  readonly record: (usage: UsageRecord) => void;
  /** The chat the call is billed to. */
  readonly chatKey: string;
};

export type RewrittenQuery = {
  /** The text to search. */
  readonly query: string;
  /** `model`: rewritten; `fusion`: earlier turns prepended; `as-is`: not a follow-up. */
  readonly via: "model" | "fusion" | "as-is";
};

const SYSTEM =
  "你把用户对文档的追问改写成一条独立的检索查询：把追问里指代的对象（它、这个、那、这种……）换成前面提问里说的东西，" +
  "保留原话里的关键词、API 名和代码写法。不要回答问题，不要解释，只输出改写后的一行查询。";

/**
 * The query to search for `question` given the chat's recent turns: the model's standalone
 * rewrite when the question is a follow-up and a real chat model may be called, else the
 * deterministic fusion (or the question itself when it is no follow-up).
 */
export async function rewriteFollowUp(
  deps: QueryRewriteDeps | null,
  settings: QueryRewriteSettings,
  question: string,
  recent: readonly EarlierTurn[],
): Promise<RewrittenQuery> {
  if (!isFollowUp(question)) return { query: question, via: "as-is" };
  const earlier = earlierUserTurns(question, recent);
  const fusion: RewrittenQuery = { query: followUpQuery(question, recent), via: "fusion" };
  if (!deps || !settings.enabled || deps.model.provider === "offline" || earlier.length === 0) return fusion;
  if (deps.mayCall && !(await deps.mayCall())) return fusion;

  const started = deps.clock.now();
  const call = deps.model.complete({
    messages: [
      { role: "system", content: SYSTEM },
      {
        role: "user",
        content: `前面的提问：\n${earlier.map((t, i) => `${i + 1}. ${t}`).join("\n")}\n追问：${question.trim()}`,
      },
    ],
    maxTokens: settings.maxTokens,
    temperature: 0,
  });
  const timedOut = deps.after(settings.timeoutMs).then(() => null);
  let response: Awaited<typeof call> | null;
  try {
    response = await Promise.race([call, timedOut]);
  } catch (e) {
    // The port reports failures as values; a thrown one is a broken adapter, still no lost search.
    response = { ok: false, error: { kind: "bad-response", message: String(e) } };
  }
  deps.record(usageOf(deps, started, response));
  if (!response?.ok) return fusion;
  const query = standaloneLine(response.value.text);
  return query === null ? fusion : { query, via: "model" };
}

/** The model's query: its first non-empty line, labels and quotes stripped; null if none fits. */
export function standaloneLine(text: string): string | null {
  const line = text
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l !== "");
  if (line === undefined) return null;
  const bare = line
    .replace(/^(改写后的?查询|查询|检索查询|query)\s*[:：]\s*/i, "")
    .replace(/^["'“”「『]+|["'“”」』]+$/g, "")
    .trim();
  return bare === "" || [...bare].length > MAX_REWRITE_CHARS ? null : bare;
}

function usageOf(
  deps: QueryRewriteDeps,
  started: number,
  response: { ok: true; value: ModelResponse } | { ok: false; error: ModelError } | null,
): UsageRecord {
  const base = {
    chatKey: deps.chatKey,
    provider: deps.model.provider,
    purpose: REWRITE_PURPOSE,
    latencyMs: Math.max(0, deps.clock.now() - started),
    at: deps.clock.now(),
  };
  if (response === null || !response.ok)
    return {
      ...base,
      model: deps.model.model,
      promptTokens: null,
      completionTokens: null,
      ok: false,
      errorKind: response === null ? "timeout" : response.error.kind,
    };
  return {
    ...base,
    model: response.value.model,
    promptTokens: response.value.usage.promptTokens,
    completionTokens: response.value.usage.completionTokens,
    ok: true,
    errorKind: null,
  };
}
