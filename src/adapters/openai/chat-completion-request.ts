/**
 * ModelRequest → the OpenAI Chat Completions request parameters (everything but `model`).
 * Shared by the OpenAI-compatible HTTP adapter and Workers AI, whose chat models take the
 * same shape: the one place a model provider's input is built, so the one place it is masked
 * (src/domain/model/masked-request.ts).
 */
import type { ChatMessage, ModelRequest, ToolSpec } from "../../domain/model/chat-model";
import { maskModelRequest } from "../../domain/model/masked-request";

export type WireToolCall = {
  readonly id: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: string };
};

export type WireMessage =
  | { readonly role: "system"; readonly content: string }
  | { readonly role: "user"; readonly content: string; readonly name?: string }
  | {
      readonly role: "assistant";
      readonly content: string | null;
      readonly tool_calls?: readonly WireToolCall[];
    }
  | { readonly role: "tool"; readonly tool_call_id: string; readonly content: string };

export type WireTool = {
  readonly type: "function";
  readonly function: { readonly name: string; readonly description: string; readonly parameters: unknown };
};

export type ChatCompletionParams = {
  readonly messages: readonly WireMessage[];
  readonly tools?: readonly WireTool[];
  readonly max_tokens?: number;
  readonly temperature?: number;
  readonly response_format?: {
    readonly type: "json_schema";
    readonly json_schema: { readonly name: string; readonly schema: unknown; readonly strict: true };
  };
};

/** OpenAI rejects a message `name` outside this pattern; such names stay only in the prompt text. */
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Builds the parameters. Optional fields are omitted, not sent as null, because some
 * compatible servers reject nulls. `recalled` is not sent: it is already in the prompt.
 */
export function toChatCompletionParams(unmasked: ModelRequest): ChatCompletionParams {
  const request = maskModelRequest(unmasked);
  return {
    messages: request.messages.map(toWireMessage),
    ...(request.tools?.length ? { tools: request.tools.map(toWireTool) } : {}),
    ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.jsonSchema
      ? {
          response_format: {
            type: "json_schema",
            json_schema: { name: request.jsonSchema.name, schema: request.jsonSchema.schema, strict: true },
          },
        }
      : {}),
  };
}

export function toWireMessage(message: ChatMessage): WireMessage {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return message.name && NAME.test(message.name)
        ? { role: "user", content: message.content, name: message.name }
        : { role: "user", content: message.content };
    case "assistant": {
      if (!message.toolCalls?.length) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        // An assistant turn that only calls tools has null content in the OpenAI contract.
        content: message.content === "" ? null : message.content,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  }
}

export function toWireTool(tool: ToolSpec): WireTool {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}
