/**
 * Everything sent to a model provider passes the detector: the request each remote adapter
 * builds (`toChatCompletionParams`, the one builder both use) holds no credential or personal
 * number in any message — system prompt, user turn, the model's own tool calls, tool results.
 */

import { OpenAiCompatibleChatModel } from "@src/adapters/openai/openai-compatible-chat-model";
import { WorkersAiChatModel } from "@src/adapters/workers-ai/workers-ai-chat-model";
import type { ModelRequest } from "@src/domain/model/chat-model";
import { describe, it } from "vitest";
import { onePerClass } from "../support/credential-corpus";

const samples = onePerClass();

/** A request that carries every class in every field a provider reads. */
function request(): ModelRequest {
  const all = samples.map((s) => s.text).join("\n");
  return {
    messages: [
      { role: "system", content: `记忆：\n${all}` },
      { role: "user", content: all, name: "u1" },
      {
        role: "assistant",
        content: all,
        toolCalls: [{ id: "c1", name: "memory_write", arguments: JSON.stringify({ text: all }) }],
      },
      { role: "tool", toolCallId: "c1", name: "history_search", content: JSON.stringify({ hits: [all] }) },
    ],
    recalled: [{ source: "memory", text: all, citation: "m1" }],
    summary: all,
  };
}

function leaks(body: string): string[] {
  const decoded = JSON.parse(body) as unknown;
  const text = JSON.stringify(decoded);
  return samples.flatMap((s) => {
    if (s.words)
      return s.words.filter((w) => new RegExp(`\\b${w}\\b`, "i").test(text)).length > 2 ? [s.class] : [];
    return s.secret && text.includes(s.secret) ? [`${s.class}: ${s.secret}`] : [];
  });
}

describe("the input a model provider receives", () => {
  it("holds no credential or personal number of any class (OpenAI-compatible)", async ({ expect }) => {
    let body = "";
    const model = new OpenAiCompatibleChatModel({
      baseUrl: "https://llm.example/v1",
      apiKey: "k",
      model: "m",
      fetch: async (_input, init) => {
        body = String(init?.body);
        return new Response(JSON.stringify({ choices: [{ message: { content: "ok" } }] }), { status: 200 });
      },
    });
    await model.complete(request());
    expect(body).not.toBe("");
    expect(leaks(body)).toEqual([]);
    // Tool call arguments stay the JSON they were.
    const sent = JSON.parse(body) as { messages: { tool_calls?: { function: { arguments: string } }[] }[] };
    const args = sent.messages[2]?.tool_calls?.[0]?.function.arguments ?? "";
    expect(() => JSON.parse(args)).not.toThrow();
  });

  it("holds no credential or personal number of any class (Workers AI)", async ({ expect }) => {
    let input: unknown = null;
    const model = new WorkersAiChatModel({
      ai: {
        run: async (_model: string, given: unknown) => {
          input = given;
          return { response: "ok" };
        },
      },
      model: "@cf/x",
    });
    await model.complete(request());
    expect(input).not.toBeNull();
    expect(leaks(JSON.stringify(input))).toEqual([]);
  });
});
