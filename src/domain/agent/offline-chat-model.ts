/**
 * The model used when no real one is configured (local runs, tests): it never calls out,
 * answers a recap question ("我们之前聊过什么") from the chat's latest summary, otherwise with
 * a short digest of what the turn recalled, and echoes what it received when nothing was.
 * Commands are handled before any model, so they work here too.
 */

import { ok } from "../kernel/result";
import type { ChatModel, ModelRequest, ModelResponse } from "../model/chat-model";
import { estimateTokens } from "../text/token-estimate";

const DIGEST_ITEMS = 3;
const SUMMARY_CHARS = 600;

/** "我们之前聊过什么", "上次说了啥", "what did we talk about": a question about earlier talk. */
const RECAP =
  /(之前|以前|上次|昨天|前天|前面|早些时候|最近|那天).{0,6}(聊|谈|说|讨论)(过|了)?(些)?(什么|啥)|聊(过|了)(些)?(什么|啥)|what (did|have) we (talk|chat|discuss)|what were we (talking|discussing)/iu;

export function isRecapQuestion(text: string): boolean {
  return RECAP.test(text);
}
const ITEM_CHARS = 80;

function clip(text: string, max: number): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : chars.join("");
}

export class OfflineChatModel implements ChatModel {
  readonly provider = "offline";
  readonly model = "offline-digest";

  async complete(request: ModelRequest) {
    const last = [...request.messages].reverse().find((m) => m.role === "user");
    const question = last ? last.content.replace(/^[^:\n]{1,40}: /, "") : "";
    const recalled = request.recalled ?? [];
    const summary = request.summary?.trim() ?? "";
    const text =
      summary !== "" && isRecapQuestion(question)
        ? `（离线模式）我们之前聊过这些：\n${[...summary].slice(0, SUMMARY_CHARS).join("")}`
        : recalled.length > 0
          ? [
              `（离线模式）关于「${clip(question, 40)}」，我记得：`,
              ...recalled
                .slice(0, DIGEST_ITEMS)
                .map((r, i) => `${i + 1}. ${clip(r.text, ITEM_CHARS)}（${r.citation}）`),
            ].join("\n")
          : `（离线模式）收到：「${clip(question, 60)}」。没有配置对话模型，我只能回忆已记下的内容；发送 /help 查看命令。`;
    const response: ModelResponse = {
      text,
      toolCalls: [],
      usage: {
        promptTokens: request.messages.reduce((n, m) => n + estimateTokens(m.content), 0),
        completionTokens: estimateTokens(text),
      },
      model: this.model,
      finishReason: "stop",
    };
    return ok(response);
  }
}
