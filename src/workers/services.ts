/** Builds model and outbound adapters from the runtime configuration. */

import { consoleLogger } from "../adapters/log/console-logger";
import { OneBotClient } from "../adapters/onebot/onebot-client";
import { OpenAiCompatibleChatModel } from "../adapters/openai/openai-compatible-chat-model";
import { QqOpenApiClient } from "../adapters/qq/qq-openapi-client";
import { RecordingOutbound } from "../adapters/recorder/recording-outbound";
import { WorkersAiChatModel } from "../adapters/workers-ai/workers-ai-chat-model";
import type { ChatModel } from "../domain/agent/chat-model";
import { OfflineChatModel } from "../domain/agent/offline-chat-model";
import type { Outbound } from "../domain/agent/outbound";
import type { Transport } from "../domain/inbound/inbound-event";
import type { RuntimeConfig } from "./runtime-config";

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
  if (transport === "qq") {
    if (!config.qq.liveOutbound) return new RecordingOutbound();
    return new QqOpenApiClient({
      appId: config.qq.appId,
      secret: config.qq.secret,
      apiBase: config.qq.apiBase,
      tokenUrl: config.qq.tokenUrl,
      fetch,
      logger: consoleLogger,
    });
  }
  if (!config.onebot.apiBase) return new RecordingOutbound();
  return new OneBotClient({
    apiBase: config.onebot.apiBase,
    ...(config.onebot.accessToken ? { accessToken: config.onebot.accessToken } : {}),
    fetch,
  });
}
