/**
 * The turn loop's ToolGuard over the AuthorizationGate (docs/identity.md#the-tool-guard). For every tool call:
 *
 *   1. privilege — a tool that requires an admin (or carries a privileged action's name) runs
 *      only for an admin; this is checked before anything about chats;
 *   2. control arguments — whatever the model put under `allowed_chats` or scope-like keys is
 *      dropped, for every tool;
 *   3. scope — a `chat_domain` tool's `chat` target must be in the current chat's domain
 *      (missing = the current chat), and the gate's set is injected as `allowed_chats`;
 *      admins get a grant for every chat.
 */
import { ALLOWED_CHATS_ARG, ChatGrant, TARGET_CHAT_ARG } from "../agent/chat-grant";
import type { ToolGuard } from "../agent/tool-call";
import type { Logger } from "../kernel/logger";
import { gateFor, isPrivilegedAction } from "./authorization-gate";

/**
 * Argument names the model may never set: the guard's own `allowed_chats` and anything that
 * would name a scope or a list of target chats.
 */
export const CONTROL_ARGS: readonly string[] = [
  ALLOWED_CHATS_ARG,
  "allowedChats",
  "allowed_chat",
  "scope",
  "scopes",
  "scope_id",
  "scope_type",
  "chats",
  "targets",
  "target_chats",
];

export function authorizationGuard(logger: Logger): ToolGuard {
  return async (tool, args, ctx) => {
    const gate = gateFor(ctx.settings.identity);
    const account = ctx.sender?.account ?? null;
    const name = tool.spec.name;

    if (tool.requiresAdmin || isPrivilegedAction(name)) {
      const authorized = gate.requireAdmin(name, account);
      if (!authorized.ok) {
        logger.warn("tool refused", {
          tool: name,
          chat: ctx.chat.key,
          account,
          cause: authorized.error.cause,
        });
        return { allowed: false, reason: `拒绝：${authorized.error.reason}` };
      }
    }

    const cleaned = withoutControlArgs(args);
    if (tool.scope !== "chat_domain") return { allowed: true, args: cleaned };

    const target = cleaned[TARGET_CHAT_ARG];
    if (target !== undefined && target !== null && target !== "") {
      if (typeof target !== "string") return { allowed: false, reason: "拒绝：chat 必须是聊天地址字符串。" };
      const inScope = gate.assertInChatScope(target, ctx.chat.key, account);
      if (!inScope.ok) {
        logger.warn("tool refused", { tool: name, chat: ctx.chat.key, account, cause: "not-in-chat-scope" });
        return { allowed: false, reason: `拒绝：${inScope.error.reason}` };
      }
      cleaned[TARGET_CHAT_ARG] = inScope.value;
    }
    const reach = gate.reachFor(ctx.chat.key, account);
    cleaned[ALLOWED_CHATS_ARG] = reach.all ? ChatGrant.everyChat() : ChatGrant.only(reach.chats);
    return { allowed: true, args: cleaned };
  };
}

/** A copy of the model's arguments without control keys; non-objects become `{}`. */
function withoutControlArgs(args: unknown): Record<string, unknown> {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) if (!CONTROL_ARGS.includes(key)) out[key] = value;
  return out;
}
