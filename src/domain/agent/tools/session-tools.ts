/** `session_reset`: clears the chat's short-term context; long-term memory stays. */
import { resetReply } from "../short-term-context";
import { type Tool, toolError } from "../tool";

export const sessionResetTool: Tool = {
  spec: {
    name: "session_reset",
    description:
      "清空当前聊天的短期上下文（最近的对话），用于对方要求“重新开始”“换个话题”时。长期记忆不受影响。每分钟最多一次。",
    parameters: { type: "object", properties: {}, additionalProperties: false },
  },
  requiresAdmin: false,
  scope: "current_chat",
  async run(_args, ctx, services) {
    const outcome = await services.shortTermContext.reset({
      eventId: ctx.event.eventId,
      actor: ctx.sender?.account ?? null,
      via: "tool",
    });
    if (!outcome.ok) return toolError(resetReply(outcome));
    return { ok: true, content: resetReply(outcome), resetContext: true };
  },
};
