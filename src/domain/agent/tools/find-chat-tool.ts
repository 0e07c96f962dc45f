/** `find_chat`: which chats the chat-domain tools may reach from here (the gate's set). */
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
    if (grant.all)
      return toolOk("你是管理员：可以访问任何聊天，用 chat 参数给出聊天地址（channel:type:id）即可。");
    const query =
      typeof args === "object" && args !== null && typeof (args as Record<string, unknown>).query === "string"
        ? ((args as Record<string, unknown>).query as string)
        : "";
    const chats = grant.chats.filter((c) => c.includes(query));
    if (chats.length === 0) return toolOk("没有匹配的聊天。");
    return toolOk(chats.map((c) => (c === ctx.chat.key ? `${c}（当前聊天）` : c)).join("\n"));
  },
};
