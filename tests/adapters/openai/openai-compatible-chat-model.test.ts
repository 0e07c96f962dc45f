import { OpenAiCompatibleChatModel } from "@src/adapters/openai/openai-compatible-chat-model";
import type { ModelRequest } from "@src/domain/model/chat-model";
import { describe, it } from "vitest";
import { unboundFetch } from "../../support/unbound-fetch";

const BASE = "https://llm.test/v1";
const KEY = "sk-test";
const MODEL = "deepseek-chat";

type Call = { url: string; headers: Headers; body: Record<string, unknown> };

/**
 * A fake Chat Completions endpoint honouring the OpenAI contract: 401 with an error envelope
 * for a wrong key, otherwise `answer` (default: a plain assistant message with usage).
 */
function fakeProvider(answer?: () => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    calls.push({ url: request.url, headers: request.headers, body: await request.json() });
    if (request.headers.get("Authorization") !== `Bearer ${KEY}`) {
      return Response.json(
        {
          error: {
            message: "Incorrect API key provided",
            type: "invalid_request_error",
            code: "invalid_api_key",
          },
        },
        { status: 401 },
      );
    }
    return answer ? answer() : Response.json(completion({ content: "你好！" }));
  };
  return { fetch, calls };
}

function completion(message: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "deepseek-chat-v3",
    choices: [
      { index: 0, message: { role: "assistant", ...message }, logprobs: null, finish_reason: "stop" },
    ],
    usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
    ...extra,
  };
}

function model(
  fetch: typeof globalThis.fetch,
  overrides: Partial<{ baseUrl: string; apiKey: string; model: string; timeoutMs: number }> = {},
) {
  return new OpenAiCompatibleChatModel({
    baseUrl: `${BASE}/`,
    apiKey: KEY,
    model: MODEL,
    fetch,
    ...overrides,
  });
}

const hello: ModelRequest = { messages: [{ role: "user", content: "你好" }] };
const errorBody = (message: string) => ({ error: { message, type: "server_error" } });

describe("OpenAiCompatibleChatModel request", () => {
  it("posts the mapped conversation, tools, limits and JSON schema", async ({ expect }) => {
    const provider = fakeProvider();
    await model(provider.fetch).complete({
      messages: [
        { role: "system", content: "你是 Akasha。" },
        { role: "user", content: "查一下天气", name: "alice_01" },
        { role: "user", content: "我也要", name: "小明" },
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "call_a", name: "weather", arguments: '{"city":"北京"}' }],
        },
        { role: "tool", toolCallId: "call_a", name: "weather", content: "晴" },
        { role: "assistant", content: "北京晴。" },
      ],
      tools: [{ name: "weather", description: "查天气", parameters: { type: "object", properties: {} } }],
      maxTokens: 256,
      temperature: 0.3,
      jsonSchema: { name: "answer", schema: { type: "object" } },
      recalled: [{ source: "memory", text: "alice 住在北京", citation: "m1" }],
    });
    const call = provider.calls[0];
    expect(call?.url).toBe(`${BASE}/chat/completions`);
    expect(call?.headers.get("Authorization")).toBe(`Bearer ${KEY}`);
    expect(call?.headers.get("Content-Type")).toBe("application/json");
    expect(call?.body).toEqual({
      model: MODEL,
      messages: [
        { role: "system", content: "你是 Akasha。" },
        { role: "user", content: "查一下天气", name: "alice_01" },
        // OpenAI rejects names outside [a-zA-Z0-9_-]; the speaker stays in the prompt text.
        { role: "user", content: "我也要" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_a", type: "function", function: { name: "weather", arguments: '{"city":"北京"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_a", content: "晴" },
        { role: "assistant", content: "北京晴。" },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "weather",
            description: "查天气",
            parameters: { type: "object", properties: {} },
          },
        },
      ],
      max_tokens: 256,
      temperature: 0.3,
      response_format: {
        type: "json_schema",
        json_schema: { name: "answer", schema: { type: "object" }, strict: true },
      },
    });
  });

  it("sends only model and messages for a plain request", async ({ expect }) => {
    const provider = fakeProvider();
    await model(provider.fetch).complete({ ...hello, tools: [] });
    expect(provider.calls[0]?.body).toEqual({ model: MODEL, messages: [{ role: "user", content: "你好" }] });
  });
});

describe("OpenAiCompatibleChatModel response", () => {
  it("returns text, usage, finish reason and the answering model", async ({ expect }) => {
    expect(await model(fakeProvider().fetch).complete(hello)).toEqual({
      ok: true,
      value: {
        text: "你好！",
        toolCalls: [],
        usage: { promptTokens: 42, completionTokens: 7 },
        model: "deepseek-chat-v3",
        finishReason: "stop",
      },
    });
  });

  it("returns tool calls with null content", async ({ expect }) => {
    const provider = fakeProvider(() =>
      Response.json({
        ...completion({
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"上海"}' } },
            { id: "call_2", type: "function", function: { name: "time", arguments: "{}" } },
          ],
        }),
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: null,
              tool_calls: [
                {
                  id: "call_1",
                  type: "function",
                  function: { name: "weather", arguments: '{"city":"上海"}' },
                },
                { id: "call_2", type: "function", function: { name: "time", arguments: "{}" } },
              ],
            },
            finish_reason: "tool_calls",
          },
        ],
      }),
    );
    expect(await model(provider.fetch).complete(hello)).toMatchObject({
      ok: true,
      value: {
        text: "",
        toolCalls: [
          { id: "call_1", name: "weather", arguments: '{"city":"上海"}' },
          { id: "call_2", name: "time", arguments: "{}" },
        ],
        finishReason: "tool_calls",
      },
    });
  });

  it("tolerates missing usage, missing model, ids and object arguments", async ({ expect }) => {
    const provider = fakeProvider(() =>
      Response.json({
        choices: [
          {
            message: {
              role: "assistant",
              content: "",
              tool_calls: [{ function: { name: "t", arguments: { a: 1 } } }],
            },
          },
        ],
      }),
    );
    expect(await model(provider.fetch).complete(hello)).toEqual({
      ok: true,
      value: {
        text: "",
        toolCalls: [{ id: "call_0", name: "t", arguments: '{"a":1}' }],
        usage: { promptTokens: null, completionTokens: null },
        model: MODEL,
        finishReason: null,
      },
    });
  });

  it("drops an inline <think> block from reasoning models", async ({ expect }) => {
    const provider = fakeProvider(() =>
      Response.json(completion({ content: "<think>\n想一想\n</think>\n\n答案是 4。" })),
    );
    expect(await model(provider.fetch).complete(hello)).toMatchObject({
      ok: true,
      value: { text: "答案是 4。" },
    });
  });

  it("reports a refusal as refused", async ({ expect }) => {
    const provider = fakeProvider(() =>
      Response.json(completion({ content: null, refusal: "I can't help with that." })),
    );
    expect(await model(provider.fetch).complete(hello)).toEqual({
      ok: false,
      error: { kind: "refused", message: "the model refused: I can't help with that." },
    });
  });
});

describe("OpenAiCompatibleChatModel errors", () => {
  it("maps 429 to rate-limited with the provider's message", async ({ expect }) => {
    const provider = fakeProvider(() => Response.json(errorBody("Rate limit reached"), { status: 429 }));
    expect(await model(provider.fetch).complete(hello)).toEqual({
      ok: false,
      error: { kind: "rate-limited", message: "HTTP 429: Rate limit reached", status: 429 },
    });
  });

  it("maps 401 and 403 to config", async ({ expect }) => {
    expect(await model(fakeProvider().fetch, { apiKey: "sk-wrong" }).complete(hello)).toEqual({
      ok: false,
      error: { kind: "config", message: "HTTP 401: Incorrect API key provided", status: 401 },
    });
    const forbidden = fakeProvider(() => new Response("forbidden", { status: 403 }));
    expect(await model(forbidden.fetch).complete(hello)).toEqual({
      ok: false,
      error: { kind: "config", message: "HTTP 403: forbidden", status: 403 },
    });
  });

  it("maps 5xx to unavailable", async ({ expect }) => {
    for (const status of [500, 502, 503]) {
      const provider = fakeProvider(() => Response.json(errorBody("The server is overloaded"), { status }));
      expect(await model(provider.fetch).complete(hello), String(status)).toMatchObject({
        ok: false,
        error: { kind: "unavailable", status },
      });
    }
  });

  it("maps other 4xx (context too long, bad request) to refused", async ({ expect }) => {
    const provider = fakeProvider(() =>
      Response.json({ error: "This model's maximum context length is 65536 tokens" }, { status: 400 }),
    );
    expect(await model(provider.fetch).complete(hello)).toEqual({
      ok: false,
      error: {
        kind: "refused",
        message: "HTTP 400: This model's maximum context length is 65536 tokens",
        status: 400,
      },
    });
  });

  it("maps network failures to unavailable", async ({ expect }) => {
    const fetch: typeof globalThis.fetch = async () => {
      throw new TypeError("Network connection lost.");
    };
    expect(await model(fetch).complete(hello)).toEqual({
      ok: false,
      error: { kind: "unavailable", message: "request failed: Network connection lost." },
    });
  });

  it("maps the deadline to timeout, while waiting for headers or for the body", async ({ expect }) => {
    const hanging: typeof globalThis.fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      });
    const slowBody: typeof globalThis.fetch = async (_input, init) =>
      new Response(
        new ReadableStream({
          start(controller) {
            init?.signal?.addEventListener("abort", () => controller.error(init.signal?.reason));
          },
        }),
      );
    for (const fetch of [hanging, slowBody]) {
      expect(await model(fetch, { timeoutMs: 20 }).complete(hello)).toEqual({
        ok: false,
        error: { kind: "timeout", message: "no answer within 20 ms" },
      });
    }
  });

  it("maps malformed bodies to bad-response", async ({ expect }) => {
    for (const body of ["not json", "{}", '{"choices":[]}', '{"choices":[{"message":{"content":5}}]}']) {
      const provider = fakeProvider(
        () => new Response(body, { headers: { "Content-Type": "application/json" } }),
      );
      expect(await model(provider.fetch).complete(hello), body).toMatchObject({
        ok: false,
        error: { kind: "bad-response" },
      });
    }
  });

  it("refuses without calling out when base URL or model is missing", async ({ expect }) => {
    const provider = fakeProvider();
    expect(await model(provider.fetch, { baseUrl: "" }).complete(hello)).toMatchObject({
      ok: false,
      error: { kind: "config" },
    });
    expect(await model(provider.fetch, { model: "" }).complete(hello)).toMatchObject({
      ok: false,
      error: { kind: "config" },
    });
    expect(provider.calls).toHaveLength(0);
  });

  it("calls fetch unbound, as workerd's own fetch requires", async ({ expect }) => {
    // workerd's fetch throws "Illegal invocation" when called as a method of another object.
    const provider = fakeProvider();
    const strict = unboundFetch(provider.fetch);
    expect((await model(strict).complete(hello)).ok).toBe(true);
  });

  it("omits Authorization for keyless local servers", async ({ expect }) => {
    const calls: Headers[] = [];
    const local: typeof globalThis.fetch = async (input, init) => {
      calls.push(new Request(input, init).headers);
      return Response.json(completion({ content: "ok" }));
    };
    expect((await model(local, { apiKey: "" }).complete(hello)).ok).toBe(true);
    expect(calls[0]?.has("Authorization")).toBe(false);
  });
});
