/** `find_chat`: which chats the chat-domain tools may reach from here (the gate's set). */
import { isOneToOne, isOneToOneKey } from "../../chat/chat-address";
import { grantOf } from "../chat-grant";

import { type Tool, toolOk } from "../tool";

export const findChatTool: Tool = {
  spec: {
    name: "find_chat",
    description:
      "列出在这里可以用 chat 参数访问的聊天（当前聊天和同一聊天域内的其他聊天），供 history_search / history_recent 指定目标。",
    parameters: {
      type: "object",
      properties: { query: { type: "string", description: "只列出地址包含这段文字的聊天（可选）" } },
      additionalProperties: false,
    },
  },
  requiresAdmin: false,
  scope: "chat_domain",
  async run(args, ctx) {
    const grant = grantOf(args, ctx);
    // From a group or channel the answer is read by everyone there, and no private chat can
    // be read from here anyway: even the addresses of private chats are left out.
    const inPrivate = isOneToOne(ctx.chat.targetType);
    if (grant.all)
      return toolOk(
        inPrivate
          ? "你是管理员：可以访问任何聊天，用 chat 参数给出聊天地址（channel:type:id）即可。"
          : "你是管理员：在这里可以用 chat 参数访问任何群聊或频道（channel:type:id）；私聊只能在你与机器人的私聊里查看。",
      );
    const query =
      typeof args === "object" && args !== null && typeof (args as Record<string, unknown>).query === "string"
        ? ((args as Record<string, unknown>).query as string)
        : "";
    const chats = grant.chats.filter(
      (c) => c.includes(query) && (inPrivate || c === ctx.chat.key || !isOneToOneKey(c)),
    );
    if (chats.length === 0) return toolOk("没有匹配的聊天。");
    return toolOk(chats.map((c) => (c === ctx.chat.key ? `${c}（当前聊天）` : c)).join("\n"));
  },
};
