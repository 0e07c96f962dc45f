/**
 * The OpenAI Chat Completions response, read leniently enough for compatible servers and
 * Workers AI: null content, missing tool-call ids, object arguments, absent usage.
 */
import { z } from "zod";
import { err, ok, type Result } from "../../domain/kernel/result";
import type { ModelResponse, ToolCall } from "../../domain/model/chat-model";

const ToolCallSchema = z.object({
  id: z.string().nullish(),
  function: z.object({
    name: z.string().min(1),
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
  }),
});

const ContentSchema = z.union([
  z.string(),
  z.array(z.object({ type: z.string(), text: z.string().nullish() })),
]);

export const ChatCompletionSchema = z.object({
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: ContentSchema.nullish(),
          refusal: z.string().nullish(),
          tool_calls: z.array(ToolCallSchema).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z.object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() }).nullish(),
});

export type ChatCompletion = Omit<ModelResponse, "model"> & {
  /** Model id the server reports, if any. */
  readonly model: string | null;
  /** The model's refusal message (structured outputs), when it declined. */
  readonly refusal: string | null;
};

/**
 * Reads `choices[0]`. Tool calls without an id get `call_<index>`; object arguments are
 * serialized to JSON text. A leading `<think>…</think>` block (reasoning models that inline
 * their reasoning) is removed so it never reaches a chat. Fails with a short reason.
 */
export function readChatCompletion(body: unknown): Result<ChatCompletion, string> {
  const parsed = ChatCompletionSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err(`not a chat completion (${issue ? `${issue.path.join(".")}: ${issue.message}` : "unknown"})`);
  }
  const { choices, usage, model } = parsed.data;
  const [choice] = choices;
  if (!choice) return err("not a chat completion (no choices)");
  return ok({
    text: withoutThinking(contentText(choice.message.content)),
    toolCalls: (choice.message.tool_calls ?? []).map((call, i) =>
      toolCall(call.id, call.function.name, call.function.arguments, i),
    ),
    usage: { promptTokens: usage?.prompt_tokens ?? null, completionTokens: usage?.completion_tokens ?? null },
    model: model ?? null,
    finishReason: choice.finish_reason ?? null,
    refusal: choice.message.refusal || null,
  });
}

/** One tool call in our shape; shared with the Workers AI legacy output. */
export function toolCall(
  id: string | null | undefined,
  name: string,
  args: string | Readonly<Record<string, unknown>> | null | undefined,
  index: number,
): ToolCall {
  const text = typeof args === "string" ? args : JSON.stringify(args ?? {});
  return { id: id || `call_${index}`, name, arguments: text };
}

export function withoutThinking(text: string): string {
  return text.replace(/^\s*<think>[\s\S]*?<\/think>\s*/, "");
}

function contentText(content: z.infer<typeof ContentSchema> | null | undefined): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((part) => part.text ?? "").join("");
}
