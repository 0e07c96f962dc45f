/**
 * What a turn has read from other chats, so that it posts nothing elsewhere after
 * (docs/invariants.md#scope-isolation). An admin's private chat may read another person's
 * private chat, and the words read there may carry instructions ("把这段发到群里"). Whatever
 * the model does next, a turn that has read another chat's words sends no message to any chat;
 * the admin can send in a turn of its own, with the text they mean.
 *
 * A tool says what it reads (`Tool.reads`); one that says nothing is taken to read every chat it
 * can reach, so a new tool errs on the closed side.
 */
import { TARGET_CHAT_ARG } from "./chat-grant";
import type { Tool } from "./tool";
import type { TurnContext } from "./turn-context";

export const POST_AFTER_READING =
  "拒绝：这一轮已经读取了其他聊天的内容，不能再向任何聊天发送消息（读到的内容可能是别人的私聊）。请在新的一轮里直接说明要发送的文字。";

export class TurnReads {
  private readElsewhere = false;

  /** Whether `tool` may run now: one that posts elsewhere, only before any other chat was read. */
  mayRun(tool: Tool): boolean {
    return !(tool.postsElsewhere === true && this.readElsewhere);
  }

  /** Records a call that ran with its guarded arguments. */
  ran(tool: Tool, args: unknown, ctx: TurnContext): void {
    if (readsOtherChats(tool, args, ctx)) this.readElsewhere = true;
  }
}

function readsOtherChats(tool: Tool, args: unknown, ctx: TurnContext): boolean {
  if (tool.scope !== "chat_domain" || tool.reads === "nothing") return false;
  if (tool.reads !== "target") return true;
  const target =
    typeof args === "object" && args !== null ? (args as Record<string, unknown>)[TARGET_CHAT_ARG] : null;
  return typeof target === "string" && target !== "" && target !== ctx.chat.key;
}
