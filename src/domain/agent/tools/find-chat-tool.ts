/**
 * `find_chat`: which chats the chat-domain tools may reach from here (the gate's set), found by
 * address, session alias or platform title (docs/sessions.md#finding-chats-by-name). Admins may reach every
 * chat, so a name finds any of them — except private chats from a group or channel turn.
 */
import { isOneToOne, isSharedKey } from "../../chat/chat-address";
import { grantOf } from "../chat-grant";

import { type Tool, toolOk } from "../tool";

/** Name matches an admin sees at most. */
const NAMED_LIMIT = 20;

export const findChatTool: Tool = {
  spec: {
    name: "find_chat",
    description:
      "列出在这里可以用 chat 参数访问的聊天（当前聊天和同一聊天域内的其他聊天），供 history_search / history_recent 指定目标。",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string", description: "只列出地址、别名或群名/好友名包含这段文字的聊天（可选）" },
      },
      additionalProperties: false,
    },
  },
  requiresAdmin: false,
  scope: "chat_domain",
  reads: "nothing",
  async run(args, ctx, services) {
    const grant = grantOf(args, ctx);
    // From a group or channel the answer is read by everyone there, and no private chat can
    // be read from here anyway: even the addresses of private chats are left out.
    const inPrivate = isOneToOne(ctx.chat.targetType);
    const query =
      typeof args === "object" && args !== null && typeof (args as Record<string, unknown>).query === "string"
        ? ((args as Record<string, unknown>).query as string).trim()
        : "";
    const admin = inPrivate
      ? "你是管理员：可以访问任何聊天，用 chat 参数给出聊天地址（channel:type:id）即可。"
      : "你是管理员：在这里可以用 chat 参数访问任何群聊或频道（channel:type:id）；私聊只能在你与机器人的私聊里查看。";
    if (grant.all && query === "") return toolOk(admin);
    const named =
      query && services.sessionAdmin
        ? await services.sessionAdmin.registry.findByName(query, NAMED_LIMIT)
        : [];
    const byKey = new Map(named.map((s) => [s.chatKey, s]));
    const candidates = grant.all ? named.map((s) => s.chatKey) : grant.chats;
    const chats = candidates.filter(
      (c) => (c.includes(query) || byKey.has(c)) && (inPrivate || c === ctx.chat.key || isSharedKey(c)),
    );
    if (chats.length === 0)
      return toolOk(grant.all ? `没有别名或名称匹配的聊天。${admin}` : "没有匹配的聊天。");
    // The domain's chats found by address carry their alias and platform name too, so the model
    // can tell "技术群" from a number. Few chats per domain: one registry read each, bounded.
    if (services.sessionAdmin)
      for (const c of chats.filter((k) => !byKey.has(k)).slice(0, NAMED_LIMIT)) {
        const s = await services.sessionAdmin.registry.resolve(c);
        if (s) byKey.set(c, s);
      }
    const label = (c: string) => {
      const s = byKey.get(c);
      const names = [s?.alias ? `别名 ${s.alias}` : null, s?.title ? `名称 ${s.title}` : null].filter(
        Boolean,
      );
      const current = c === ctx.chat.key ? ["当前聊天"] : [];
      const all = [...current, ...names];
      return all.length ? `${c}（${all.join("，")}）` : c;
    };
    return toolOk(chats.map(label).join("\n"));
  },
};
