/** Builds model and outbound adapters from the runtime configuration. */

import { consoleLogger } from "../../adapters/log/console-logger";
import { OneBotClient } from "../../adapters/onebot/onebot-client";
import { OpenAiCompatibleChatModel } from "../../adapters/openai/openai-compatible-chat-model";
import { QqOpenApiClient } from "../../adapters/qq/qq-openapi-client";
import { RecordingOutbound } from "../../adapters/recorder/recording-outbound";
import { WorkersAiChatModel } from "../../adapters/workers-ai/workers-ai-chat-model";
import { OfflineChatModel } from "../../domain/agent/offline-chat-model";
import type { Outbound } from "../../domain/agent/outbound";
import type { Transport } from "../../domain/inbound/inbound-event";
import type { ChatModel } from "../../domain/model/chat-model";
import type { RuntimeConfig } from "./runtime-config";

/**
 * One QQ client per isolate and bot: every chat object in the isolate shares its cached
 * access token instead of fetching one each (the token endpoint rate-limits).
 */
const qqClients = new Map<string, QqOpenApiClient>();

function qqClient(config: RuntimeConfig): QqOpenApiClient {
  const key = `${config.qq.appId}|${config.qq.apiBase}|${config.qq.tokenUrl}`;
  let client = qqClients.get(key);
  if (!client) {
    client = new QqOpenApiClient({
      appId: config.qq.appId,
      secret: config.qq.secret,
      apiBase: config.qq.apiBase,
      tokenUrl: config.qq.tokenUrl,
      fetch: (input, init) => fetch(input, init),
      logger: consoleLogger,
    });
    qqClients.set(key, client);
  }
  return client;
}

/** OpenAI-compatible when LLM_BASE_URL and LLM_MODEL are set, else Workers AI, else offline. */
export function createChatModel(env: Env, config: RuntimeConfig): ChatModel {
  const choice = config.model;
  switch (choice.provider) {
    case "openai-compatible":
      return new OpenAiCompatibleChatModel({
        baseUrl: choice.baseUrl,
        apiKey: choice.apiKey,
        model: choice.model,
        fetch,
      });
    case "workers-ai":
      if (env.AI) return new WorkersAiChatModel({ ai: env.AI, model: choice.model });
      return new OfflineChatModel();
    case "offline":
      return new OfflineChatModel();
  }
}

/**
 * QQ replies go to the QQ OpenAPI in production (or locally with QQ_OUTBOUND=live) and to a
 * recorder otherwise; OneBot replies go to the OneBot HTTP API when ONEBOT_API_BASE is set
 * and to a recorder otherwise.
 */
export function createOutbound(config: RuntimeConfig, transport: Transport): Outbound {
  if (transport === "qq") return config.qq.liveOutbound ? qqClient(config) : new RecordingOutbound();
  if (!config.onebot.apiBase) return new RecordingOutbound();
  return new OneBotClient({
    apiBase: config.onebot.apiBase,
    ...(config.onebot.accessToken ? { accessToken: config.onebot.accessToken } : {}),
    fetch: (input, init) => fetch(input, init),
  });
}
