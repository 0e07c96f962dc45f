/**
 * The chat-model port. Adapters: Workers AI, OpenAI-compatible HTTP, and the offline model
 * used when neither is configured. Every adapter returns the same shapes, records usage and
 * reports failures as values.
 */
import type { Result } from "../kernel/result";

/** JSON Schema subset used for tool parameters and structured output. */
export type JsonSchema = { readonly [key: string]: unknown };

export type ToolSpec = {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
};

export type ToolCall = {
  readonly id: string;
  readonly name: string;
  /** Arguments as the model sent them (JSON text); parsed and validated by the tool. */
  readonly arguments: string;
};

export type ChatMessage =
  | { readonly role: "system"; readonly content: string }
  | { readonly role: "user"; readonly content: string; readonly name?: string }
  | { readonly role: "assistant"; readonly content: string; readonly toolCalls?: readonly ToolCall[] }
  | { readonly role: "tool"; readonly toolCallId: string; readonly name: string; readonly content: string };

/** An item the turn recalled, passed in structured form as well as inside the prompt. */
export type RecalledItem = {
  readonly source: string;
  readonly text: string;
  readonly citation: string;
  /** For memory items: where the item lives and why it ranked (context preview, dashboard). */
  readonly meta?: RecalledMeta;
  /**
   * Whether it holds words that must stay in the chat they were said in (a message its speaker
   * marked). Absent: a memory item's sensitivity says; knowledge is public; anything else is
   * taken as marked (src/domain/agent/turn-privacy.ts).
   */
  readonly marked?: boolean;
};

export type RecalledMeta = {
  readonly nodeId: string;
  readonly scope: string;
  readonly kind: string;
  readonly sensitivity: string;
  readonly score: number;
};

export type ModelRequest = {
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ToolSpec[];
  readonly maxTokens?: number;
  readonly temperature?: number;
  /** Ask for JSON matching this schema (dreaming, extraction). Output must still be validated. */
  readonly jsonSchema?: { readonly name: string; readonly schema: JsonSchema };
  /** What the turn recalled; the offline model digests it, real models read it in the prompt. */
  readonly recalled?: readonly RecalledItem[];
  /** The chat's latest summary from the mandatory block; the offline model answers recap questions from it. */
  readonly summary?: string | null;
};

export type TokenUsage = { readonly promptTokens: number | null; readonly completionTokens: number | null };

export type ModelResponse = {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly usage: TokenUsage;
  /** Model id that answered (provider-specific). */
  readonly model: string;
  readonly finishReason: string | null;
};

export type ModelError = {
  readonly kind: "unavailable" | "rate-limited" | "timeout" | "bad-response" | "refused" | "config";
  readonly message: string;
  readonly status?: number;
};

export interface ChatModel {
  /** `workers-ai` | `openai-compatible` | `offline` */
  readonly provider: string;
  readonly model: string;
  /** One completion. Never throws for remote failures; returns a ModelError instead. */
  complete(request: ModelRequest): Promise<Result<ModelResponse, ModelError>>;
}

/** One model call as recorded in the usage table. */
export type UsageRecord = {
  readonly chatKey: string;
  readonly provider: string;
  readonly model: string;
  readonly purpose: string;
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
  readonly latencyMs: number;
  readonly ok: boolean;
  readonly errorKind: string | null;
  readonly at: number;
};
