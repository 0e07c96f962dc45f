/**
 * What is sent to a model provider passes the detector (docs/invariants.md#credentials-are-never-stored-in-memory):
 * every message — the system prompt with its recalled memory and history, the person's turn,
 * the model's own earlier turns and tool calls, and tool results — with its credentials and
 * personal numbers masked. Inbound events are masked on arrival already; this is the last door,
 * for whatever a tool read from elsewhere or the model wrote itself. Tool call arguments stay
 * valid JSON: the strings inside them are masked, not the JSON text.
 */
import { maskSensitiveData } from "../privacy/credentials";
import type { ChatMessage, ModelRequest, RecalledItem, ToolCall } from "./chat-model";

function maskJsonStrings(value: unknown): unknown {
  if (typeof value === "string") return maskSensitiveData(value);
  if (Array.isArray(value)) return value.map(maskJsonStrings);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [maskSensitiveData(k), maskJsonStrings(v)]),
    );
  return value;
}

/** JSON text with the strings inside it masked; any other text masked as text. */
function maskArguments(args: string): string {
  try {
    return JSON.stringify(maskJsonStrings(JSON.parse(args)));
  } catch {
    return maskSensitiveData(args);
  }
}

function maskCall(call: ToolCall): ToolCall {
  return { ...call, arguments: maskArguments(call.arguments) };
}

function maskMessage(m: ChatMessage): ChatMessage {
  switch (m.role) {
    case "assistant":
      return {
        ...m,
        content: maskSensitiveData(m.content),
        ...(m.toolCalls ? { toolCalls: m.toolCalls.map(maskCall) } : {}),
      };
    // A tool result is JSON whose strings escape their line breaks: read inside the strings.
    case "tool":
      return { ...m, content: maskArguments(m.content) };
    default:
      return { ...m, content: maskSensitiveData(m.content) };
  }
}

function maskRecalled(r: RecalledItem): RecalledItem {
  return { ...r, text: maskSensitiveData(r.text), citation: maskSensitiveData(r.citation) };
}

/** `request` as it may leave for a model provider. */
export function maskModelRequest(request: ModelRequest): ModelRequest {
  return {
    ...request,
    messages: request.messages.map(maskMessage),
    ...(request.recalled ? { recalled: request.recalled.map(maskRecalled) } : {}),
    ...(typeof request.summary === "string" ? { summary: maskSensitiveData(request.summary) } : {}),
  };
}
