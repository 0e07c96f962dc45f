/**
 * `session_manage`: an admin clears the short-term context of a chat — the same reset as
 * `/reset` there (one per chat per minute, memory kept), audited in that chat and in this one.
 * Like every chat-domain tool, the target goes through the gate's chat-scope check, which
 * gives admins every chat (docs/identity.md#chat-domains) and still refuses what is not a chat address.
 */
import { gateFor } from "../../authorization/authorization-gate";
import type { AuditOutcome } from "../../kernel/audit";
import { TARGET_CHAT_ARG } from "../chat-grant";
import { type ResetResult, resetReply } from "../short-term-context";
import { type Tool, toolError, toolOk } from "../tool";

const ACTION = "session_manage";

export const sessionManageTool: Tool = {
  spec: {
    name: ACTION,
    description:
      "（仅管理员）清空一个聊天的短期上下文（最近的对话），效果等同于在那个聊天里发 /reset；长期记忆、摘要和聊天记录都保留。省略 chat 即当前聊天。每个聊天每分钟最多一次。",
    parameters: {
      type: "object",
      properties: {
        chat: { type: "string", description: "目标聊天地址，例如 onebot:group:123456；省略则为当前聊天" },
      },
      additionalProperties: false,
    },
  },
  requiresAdmin: true,
  scope: "chat_domain",
  reads: "nothing",
  async run(args, ctx, services) {
    const actor = ctx.sender?.account ?? null;
    const gate = gateFor(ctx.settings.identity);
    const raw =
      typeof args === "object" && args !== null ? (args as Record<string, unknown>)[TARGET_CHAT_ARG] : null;
    const named = typeof raw === "string" && raw !== "" ? raw : null;
    const audit = (
      target: string | null,
      outcome: AuditOutcome,
      detail: Record<string, string | number | boolean | null>,
    ) =>
      services.audit.record({ action: ACTION, actor, target, outcome, detail: { via: "tool", ...detail } });

    const authorized = gate.requireAdmin(ACTION, actor);
    if (!authorized.ok) {
      audit(named, "refused", { cause: authorized.error.cause });
      return toolError(`拒绝：${authorized.error.reason}`);
    }
    const inScope = named === null ? null : gate.assertInChatScope(named, ctx.chat.key, actor);
    if (inScope && !inScope.ok) {
      audit(named, "refused", { cause: "not-in-chat-scope" });
      return toolError(`拒绝：${inScope.error.reason}`);
    }
    const target = inScope?.value ?? ctx.chat.key;
    const request = { eventId: ctx.event.eventId, actor, via: "tool" as const };

    if (target === ctx.chat.key) {
      const outcome = await services.shortTermContext.reset(request);
      audit(target, outcome.ok ? "ok" : "refused", outcomeDetail(outcome));
      if (!outcome.ok) return toolError(resetReply(outcome));
      return { ok: true, content: resetReply(outcome), resetContext: true };
    }
    const outcome = await services.otherContexts.reset(target, { ...request, from: ctx.chat.key });
    audit(target, outcome.ok ? "ok" : "refused", outcomeDetail(outcome));
    if (!outcome.ok) {
      return toolError(
        `${target} 刚刚已经重置过了，请 ${outcome.error.retryAfterSeconds} 秒后再试。长期记忆没有变化。`,
      );
    }
    return toolOk(
      `已清空 ${target} 的短期上下文（${outcome.value.cleared} 条最近的对话）。长期记忆、摘要和聊天记录都保留着。`,
    );
  },
};

function outcomeDetail(outcome: ResetResult): Record<string, number | boolean> {
  return outcome.ok
    ? { clearedTurns: outcome.value.cleared, repeated: outcome.value.repeated }
    : { retryAfterSeconds: outcome.error.retryAfterSeconds };
}
