/**
 * `send_message`: an admin's one-off message into another chat (see chat-relay.ts for what
 * each platform allows). Privileged; the guard checks that first, and the tool checks again
 * so that it never runs unguarded.
 */
import { gateFor } from "../../authorization/authorization-gate";
import { grantOf, targetChatOf } from "../chat-grant";
import { type Tool, toolError, toolOk } from "../tool";

export const sendMessageTool: Tool = {
  spec: {
    name: "send_message",
    description:
      "（仅管理员）向另一个聊天发送一条消息。可发往 OneBot 群/私聊、QQ 频道和频道私信；QQ 群和 QQ 私聊只接受被动回复，无法跨聊天发送。发给当前聊天的内容直接写在回复里。",
    parameters: {
      type: "object",
      properties: {
        chat: { type: "string", description: "目标聊天地址，例如 onebot:group:123456" },
        text: { type: "string", description: "要发送的文字" },
      },
      required: ["chat", "text"],
      additionalProperties: false,
    },
  },
  requiresAdmin: true,
  scope: "chat_domain",
  reads: "nothing",
  postsElsewhere: true,
  async run(args, ctx, services) {
    const actor = ctx.sender?.account ?? null;
    const authorized = gateFor(ctx.settings.identity).requireAdmin("send_message", actor);
    if (!authorized.ok) return toolError(`拒绝：${authorized.error.reason}`);
    const target = targetChatOf(args, ctx);
    if (!target.ok) return toolError(target.reason);
    const a = args as Record<string, unknown>;
    if (a.chat === undefined || target.chat === ctx.chat.key) {
      return toolError("发往当前聊天的内容直接写在回复里即可；send_message 只用于其他聊天。");
    }
    const text = typeof a.text === "string" ? a.text.trim() : "";
    if (text === "") return toolError("text 必须是非空字符串");
    if ([...text].length > ctx.settings.turn.maxReplyChars) {
      return toolError(`text 超过 ${ctx.settings.turn.maxReplyChars} 个字符`);
    }
    const sent = await services.relay.send({ from: ctx.chat.key, to: target.chat, text });
    services.audit.record({
      action: "send_message",
      actor,
      target: target.chat,
      outcome: sent.ok ? "ok" : sent.error.kind === "unsupported" ? "refused" : "failed",
      detail: {
        chars: [...text].length,
        unrestricted: grantOf(args, ctx).all,
        ...(sent.ok ? { messageId: sent.value.messageId } : { error: sent.error.kind }),
      },
    });
    return sent.ok ? toolOk(`已发送到 ${target.chat}。`) : toolError(`没有发出：${sent.error.message}`);
  },
};
