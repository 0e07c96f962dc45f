/**
 * Where a cross-chat read may land (docs/invariants.md#scope-isolation). A tool's answer is
 * posted where the turn happens, so from a group or channel turn no read of another chat may
 * return a private chat's messages or memory — whoever asks, whatever the chat domain says.
 * Nor may a member's private chat read another private chat: a domain listing two people's
 * private chats would show one the other's conversation. Only admins read another private
 * chat, and only from their own private chat (and the admin API). Every tool that reads
 * another chat takes its target through `readTargetOf`.
 */
import { gateFor } from "../authorization/authorization-gate";
import { type ChatKey, isOneToOne, isOneToOneKey, isSharedKey } from "../chat/chat-address";
import { grantOf, targetChatOf } from "./chat-grant";
import type { TurnContext } from "./turn-context";

/** Whether this turn may read another chat's private chat: an admin, in a private chat. */
const readsOtherPrivateChats = (args: unknown, ctx: TurnContext): boolean =>
  grantOf(args, ctx).all && isOneToOne(ctx.chat.targetType);

/**
 * The chat a reading tool should read: the grant-checked target of `targetChatOf`, refused
 * when it is another private chat and this turn is not an admin's in a private chat.
 */
export function readTargetOf(args: unknown, ctx: TurnContext): ReturnType<typeof targetChatOf> {
  const target = targetChatOf(args, ctx);
  if (!target.ok || target.chat === ctx.chat.key) return target;
  // A key of unknown type (legacy, malformed) may be a private chat: read only where one may be.
  if (!isSharedKey(target.chat) && !readsOtherPrivateChats(args, ctx)) {
    if (!isOneToOneKey(target.chat)) {
      return {
        ok: false,
        reason:
          `拒绝：${target.chat} 不是能确定为群聊或频道的地址（channel:group:id 或 channel:channel:id），` +
          "这里不能读取。管理员请在自己与机器人的私聊里查看。",
      };
    }
    return {
      ok: false,
      reason: isOneToOne(ctx.chat.targetType)
        ? `拒绝：私聊 ${target.chat} 只能在它自己里面读取（它是另一个人与我的对话）。管理员请在自己与机器人的私聊里查看。`
        : `拒绝：在群聊或频道里不能读取私聊 ${target.chat} 的消息或记忆（回答会发到这里，所有人都能看到）。` +
          "管理员请在自己与机器人的私聊里查看。",
    };
  }
  return target;
}

/**
 * The chats a tool that reads several chats at once reads: the gate's set (for admins, whose
 * grant is every chat, the current chat's domain), the current chat first, without any other
 * private chat unless this turn is an admin's in a private chat — the same rule as above.
 */
export function readableChatsOf(args: unknown, ctx: TurnContext): ChatKey[] {
  const grant = grantOf(args, ctx);
  const reach = grant.all ? gateFor(ctx.settings.identity).allowedChatsFor(ctx.chat.key) : grant.chats;
  const privateToo = readsOtherPrivateChats(args, ctx);
  const others = reach.filter((c) => c !== ctx.chat.key && (privateToo || isSharedKey(c)));
  return [ctx.chat.key, ...new Set(others)];
}
