/**
 * Workers AI text-generation output → our completion shape. Newer models (qwen3, glm-4.7)
 * answer like OpenAI (`choices[0].message`); older ones use the legacy
 * `{ response, tool_calls: [{ name, arguments }], usage }`; some return a bare string.
 */
import { z } from "zod";
import { err, ok, type Result } from "../../domain/kernel/result";
import {
  type ChatCompletion,
  readChatCompletion,
  toolCall,
  withoutThinking,
} from "../openai/chat-completion.schema";

const LegacyOutputSchema = z.object({
  // A string, or an object when JSON mode parsed the answer for us.
  response: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]).nullish(),
  tool_calls: z
    .array(
      z.object({
        id: z.string().nullish(),
        name: z.string().min(1),
        arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
      }),
    )
    .nullish(),
  usage: z.object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() }).nullish(),
});

/** Reads any of the three shapes. Object responses and arguments become JSON text. */
export function readWorkersAiOutput(output: unknown): Result<ChatCompletion, string> {
  if (typeof output === "string") return ok(completion(withoutThinking(output)));
  if (typeof output !== "object" || output === null) return err(`output is ${typeof output}, not an object`);
  if ("choices" in output) return readChatCompletion(output);
  if (!("response" in output) && !("tool_calls" in output)) {
    return err("output has neither choices nor response");
  }
  const parsed = LegacyOutputSchema.safeParse(output);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err(
      `unrecognized legacy output (${issue ? `${issue.path.join(".")}: ${issue.message}` : "unknown"})`,
    );
  }
  const { response, tool_calls, usage } = parsed.data;
  const text =
    typeof response === "string" ? withoutThinking(response) : response ? JSON.stringify(response) : "";
  return ok({
    ...completion(text),
    toolCalls: (tool_calls ?? []).map((call, i) => toolCall(call.id, call.name, call.arguments, i)),
    usage: { promptTokens: usage?.prompt_tokens ?? null, completionTokens: usage?.completion_tokens ?? null },
  });
}

function completion(text: string): ChatCompletion {
  return {
    text,
    toolCalls: [],
    usage: { promptTokens: null, completionTokens: null },
    model: null,
    finishReason: null,
    refusal: null,
  };
}
