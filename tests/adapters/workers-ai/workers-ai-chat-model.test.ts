import { type WorkersAiBinding, WorkersAiChatModel } from "@src/adapters/workers-ai/workers-ai-chat-model";
import type { ModelRequest } from "@src/domain/model/chat-model";
import { describe, expectTypeOf, it } from "vitest";

const MODEL = "@cf/qwen/qwen3-30b-a3b-fp8";
const hello: ModelRequest = { messages: [{ role: "user", content: "你好" }] };

type Run = { model: string; input: unknown; options: unknown };

/** A fake `AI` binding: records each run and answers with `answer` (a value, or a thrown error). */
function fakeAi(answer: (input: unknown, options: unknown) => unknown) {
  const runs: Run[] = [];
  const ai: WorkersAiBinding = {
    async run(model, input, options) {
      runs.push({ model, input, options });
      return answer(input, options);
    },
  };
  return { ai, runs };
}

const chatModel = (ai: WorkersAiBinding, timeoutMs?: number) =>
  new WorkersAiChatModel({ ai, model: MODEL, timeoutMs });

/** What qwen3 / glm-4.7 return: an OpenAI-style chat completion. */
function openAiStyle(message: Record<string, unknown>, finishReason = "stop") {
  return {
    id: "chatcmpl-wai",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "/models/qwen3-30b",
    choices: [
      {
        index: 0,
        message: { role: "assistant", ...message },
        finish_reason: finishReason,
        stop_reason: null,
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 30, completion_tokens: 5, total_tokens: 35 },
    prompt_logprobs: null,
  };
}

describe("WorkersAiChatModel", () => {
  it("accepts the real Ai binding type", () => {
    expectTypeOf<Ai>().toExtend<WorkersAiBinding>();
  });

  it("runs the model with OpenAI-style input and an abort signal", async ({ expect }) => {
    const fake = fakeAi(() => openAiStyle({ content: "好" }));
    await chatModel(fake.ai).complete({
      messages: [
        { role: "system", content: "系统" },
        { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "lookup", arguments: "{}" }] },
        { role: "tool", toolCallId: "c1", name: "lookup", content: "结果" },
      ],
      tools: [{ name: "lookup", description: "查", parameters: { type: "object", properties: {} } }],
      maxTokens: 100,
      temperature: 0.2,
      jsonSchema: { name: "out", schema: { type: "object" } },
    });
    const [run] = fake.runs;
    expect(run?.model).toBe(MODEL);
    expect(run?.input).toEqual({
      messages: [
        { role: "system", content: "系统" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "lookup", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c1", content: "结果" },
      ],
      tools: [
        {
          type: "function",
          function: { name: "lookup", description: "查", parameters: { type: "object", properties: {} } },
        },
      ],
      max_tokens: 100,
      temperature: 0.2,
      response_format: {
        type: "json_schema",
        json_schema: { name: "out", schema: { type: "object" }, strict: true },
      },
    });
    expect(run?.options).toEqual({ signal: expect.any(AbortSignal) });
  });

  it("reads the OpenAI-style output, reporting the catalog model id", async ({ expect }) => {
    const fake = fakeAi(() => openAiStyle({ content: "北京晴。", reasoning_content: "用户问天气" }));
    expect(await chatModel(fake.ai).complete(hello)).toEqual({
      ok: true,
      value: {
        text: "北京晴。",
        toolCalls: [],
        usage: { promptTokens: 30, completionTokens: 5 },
        model: MODEL,
        finishReason: "stop",
      },
    });
  });

  it("reads OpenAI-style tool calls", async ({ expect }) => {
    const fake = fakeAi(() =>
      openAiStyle(
        {
          content: null,
          tool_calls: [
            {
              id: "chatcmpl-tool-1",
              type: "function",
              function: { name: "lookup", arguments: '{"q":"天气"}' },
            },
          ],
        },
        "tool_calls",
      ),
    );
    expect(await chatModel(fake.ai).complete(hello)).toMatchObject({
      ok: true,
      value: {
        text: "",
        toolCalls: [{ id: "chatcmpl-tool-1", name: "lookup", arguments: '{"q":"天气"}' }],
        finishReason: "tool_calls",
      },
    });
  });

  it("reads the legacy output with object arguments and usage", async ({ expect }) => {
    const fake = fakeAi(() => ({
      response: null,
      tool_calls: [
        { name: "lookup", arguments: { q: "天气" } },
        { name: "time", arguments: '{"tz":"Asia/Shanghai"}' },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
    }));
    expect(await chatModel(fake.ai).complete(hello)).toEqual({
      ok: true,
      value: {
        text: "",
        toolCalls: [
          { id: "call_0", name: "lookup", arguments: '{"q":"天气"}' },
          { id: "call_1", name: "time", arguments: '{"tz":"Asia/Shanghai"}' },
        ],
        usage: { promptTokens: 12, completionTokens: 3 },
        model: MODEL,
        finishReason: null,
      },
    });
  });

  it("reads legacy text and JSON-mode object responses", async ({ expect }) => {
    const text = fakeAi(() => ({ response: "你好！" }));
    const json = fakeAi(() => ({
      response: { name: "India", capital: "New Delhi" },
      usage: { prompt_tokens: 9 },
    }));
    expect(await chatModel(text.ai).complete(hello)).toMatchObject({
      ok: true,
      value: { text: "你好！", toolCalls: [], usage: { promptTokens: null, completionTokens: null } },
    });
    expect(await chatModel(json.ai).complete(hello)).toMatchObject({
      ok: true,
      value: {
        text: '{"name":"India","capital":"New Delhi"}',
        usage: { promptTokens: 9, completionTokens: null },
      },
    });
  });

  it("reads a bare string output", async ({ expect }) => {
    const fake = fakeAi(() => "<think></think>你好");
    expect(await chatModel(fake.ai).complete(hello)).toMatchObject({ ok: true, value: { text: "你好" } });
  });

  it("maps unrecognized output to bad-response", async ({ expect }) => {
    for (const output of [null, 42, {}, { request_id: "async-1" }, { choices: [] }, { response: 5 }]) {
      const fake = fakeAi(() => output);
      expect(await chatModel(fake.ai).complete(hello), JSON.stringify(output)).toMatchObject({
        ok: false,
        error: { kind: "bad-response" },
      });
    }
  });

  it("maps thrown errors to ModelError kinds", async ({ expect }) => {
    const cases: [string, string][] = [
      ["3040: Capacity temporarily exceeded, please try again.", "rate-limited"],
      ["AiError: 3036: You have used up your daily free allocation of 10,000 neurons.", "rate-limited"],
      ["InferenceUpstreamError: Too many requests", "rate-limited"],
      ["JSON Mode couldn't be met", "bad-response"],
      ["AiError: 3007: Request timeout", "timeout"],
      ["5007: No such model @cf/qwen/nope or task", "config"],
      ["3042: The model name is invalid", "config"],
      ["3006: Request is too large", "refused"],
      ["InferenceUpstreamError: internal server error", "unavailable"],
    ];
    for (const [message, kind] of cases) {
      const fake = fakeAi(() => {
        throw new Error(message);
      });
      expect(await chatModel(fake.ai).complete(hello), message).toEqual({
        ok: false,
        error: expect.objectContaining({ kind, message: `Workers AI: ${message}` }),
      });
    }
  });

  it("maps a non-Error throw to unavailable", async ({ expect }) => {
    const fake = fakeAi(() => {
      throw "boom";
    });
    expect(await chatModel(fake.ai).complete(hello)).toEqual({
      ok: false,
      error: { kind: "unavailable", message: "Workers AI: boom" },
    });
  });

  it("maps its own deadline to timeout", async ({ expect }) => {
    const fake = fakeAi(
      (_input, options) =>
        new Promise((_resolve, reject) => {
          const signal = (options as { signal: AbortSignal }).signal;
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
    );
    expect(await chatModel(fake.ai, 20).complete(hello)).toMatchObject({
      ok: false,
      error: { kind: "timeout" },
    });
  });

  it("refuses without running when no model is configured", async ({ expect }) => {
    const fake = fakeAi(() => "x");
    const result = await new WorkersAiChatModel({ ai: fake.ai, model: "" }).complete(hello);
    expect(result).toMatchObject({ ok: false, error: { kind: "config" } });
    expect(fake.runs).toHaveLength(0);
  });
});
