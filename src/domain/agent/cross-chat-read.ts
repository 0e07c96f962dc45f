/**
 * Where a cross-chat read may land (docs/invariants.md#scope-isolation). A tool's answer is
 * posted where the turn happens, so from a group or channel turn no read of another chat may
 * return a private chat's messages or memory — whoever asks, whatever the chat domain says.
 * Admins read other chats without that limit only from their own private chat (and the admin
 * API). Every tool that reads another chat takes its target through `readTargetOf`.
 */
import { gateFor } from "../authorization/authorization-gate";
import { type ChatKey, isOneToOne, isOneToOneKey } from "../chat/chat-address";
import { grantOf, targetChatOf } from "./chat-grant";
import type { TurnContext } from "./turn-context";

/**
 * The chat a reading tool should read: the grant-checked target of `targetChatOf`, refused
 * when it is another chat's private chat and this turn is not itself in a private chat.
 */
export function readTargetOf(args: unknown, ctx: TurnContext): ReturnType<typeof targetChatOf> {
  const target = targetChatOf(args, ctx);
  if (!target.ok || target.chat === ctx.chat.key) return target;
  if (isOneToOneKey(target.chat) && !isOneToOne(ctx.chat.targetType)) {
    return {
      ok: false,
      reason:
        `拒绝：在群聊或频道里不能读取私聊 ${target.chat} 的消息或记忆（回答会发到这里，所有人都能看到）。` +
        "管理员请在自己与机器人的私聊里查看。",
    };
  }
  return target;
}

/**
 * The chats a tool that reads several chats at once reads: the gate's set (for admins, whose
 * grant is every chat, the current chat's domain), the current chat first, without any other
 * chat's private chat unless this turn is itself in a private chat — the same rule as above.
 */
export function readableChatsOf(args: unknown, ctx: TurnContext): ChatKey[] {
  const grant = grantOf(args, ctx);
  const reach = grant.all ? gateFor(ctx.settings.identity).allowedChatsFor(ctx.chat.key) : grant.chats;
  const inPrivate = isOneToOne(ctx.chat.targetType);
  const others = reach.filter((c) => c !== ctx.chat.key && (inPrivate || !isOneToOneKey(c)));
  return [ctx.chat.key, ...new Set(others)];
}
