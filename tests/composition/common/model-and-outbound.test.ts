import { env } from "cloudflare:workers";
import { OneBotClient } from "@src/adapters/onebot/onebot-client";
import { OpenAiCompatibleChatModel } from "@src/adapters/openai/openai-compatible-chat-model";
import { QqOpenApiClient } from "@src/adapters/qq/qq-openapi-client";
import { RecordingOutbound } from "@src/adapters/recorder/recording-outbound";
import { WorkersAiChatModel } from "@src/adapters/workers-ai/workers-ai-chat-model";
import { createChatModel, createOutbound } from "@src/composition/common/model-and-outbound";
import { readRuntimeConfig } from "@src/composition/common/runtime-config";
import { OfflineChatModel } from "@src/domain/agent/offline-chat-model";
import { describe, it } from "vitest";

const production = {
  ...env,
  AKASHA_ENV: "production",
  QQ_BOT_APPID: "1",
  QQ_BOT_SECRET: "s",
  ADMIN_TOKEN: "t",
} as Env;

describe("model selection", () => {
  it("is offline when no model is configured", ({ expect }) => {
    expect(createChatModel(env, readRuntimeConfig(env))).toBeInstanceOf(OfflineChatModel);
  });

  it("prefers an OpenAI-compatible model when its base URL and model are set", ({ expect }) => {
    const e = {
      ...env,
      LLM_BASE_URL: "https://llm.example/v1",
      LLM_MODEL: "m",
      AI_CHAT_MODEL: "@cf/x",
      AI: { run: async () => ({}) },
    } as unknown as Env;
    expect(createChatModel(e, readRuntimeConfig(e))).toBeInstanceOf(OpenAiCompatibleChatModel);
  });

  it("uses Workers AI when the AI binding and a model id exist", ({ expect }) => {
    const e = {
      ...env,
      AI_CHAT_MODEL: "@cf/qwen/qwen3-30b-a3b-fp8",
      AI: { run: async () => ({}) },
    } as unknown as Env;
    const model = createChatModel(e, readRuntimeConfig(e));
    expect(model).toBeInstanceOf(WorkersAiChatModel);
    expect(model.model).toBe("@cf/qwen/qwen3-30b-a3b-fp8");
  });
});

describe("outbound selection", () => {
  it("records replies locally and calls QQ in production, one client per isolate", ({ expect }) => {
    expect(createOutbound(readRuntimeConfig(env), "qq")).toBeInstanceOf(RecordingOutbound);
    const config = readRuntimeConfig(production);
    const first = createOutbound(config, "qq");
    expect(first).toBeInstanceOf(QqOpenApiClient);
    expect(createOutbound(config, "qq")).toBe(first);
  });

  it("calls the OneBot HTTP API only when its base URL is set", ({ expect }) => {
    expect(createOutbound(readRuntimeConfig(env), "onebot")).toBeInstanceOf(RecordingOutbound);
    const e = { ...env, ONEBOT_API_BASE: "http://127.0.0.1:3000" } as Env;
    expect(createOutbound(readRuntimeConfig(e), "onebot")).toBeInstanceOf(OneBotClient);
  });
});
