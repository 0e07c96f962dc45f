/**
 * `/session list|info|link|unlink|rename|retention|store|forget|export|forget-person`: the
 * session registry in chat, for admins only and only in a private chat with the bot
 * (docs/sessions.md#commands). The gate decides who; the
 * operation itself is the one the admin API and the CLI run. Every use is audited with the
 * command text, refusals included.
 */
import { gateFor } from "../../authorization/authorization-gate";
import { isOneToOneKey } from "../../chat/chat-address";
import { runSessionOperation } from "../../sessions/run-session-operation";
import { parseSessionArgs, SESSION_USAGE } from "../../sessions/session-operation";
import type { Command } from "../command";

/** The gate's action for every session operation: `session_manage` is privileged already. */
export const SESSION_ACTION = "session_manage";
/** A chat reply has room for a short export; the admin API and the CLI give the whole file. */
const CHAT_EXPORT_CHARS = 3000;

export const sessionCommand: Command = {
  name: "session",
  usage: "/session list|info|link|unlink|rename|retention|store|forget|export …",
  summary: "（管理员）会话列表、关联记忆组、别名、保留期、存储开关、删除与导出",
  async run(args, ctx, services) {
    const actor = ctx.sender?.account ?? null;
    const commandText = `/session ${args}`.trim();
    const parsed = parseSessionArgs(args.split(/\s+/).filter(Boolean));
    const action = parsed.ok ? `session.${parsed.value.op}` : "session.usage";
    const target = parsed.ok && "ref" in parsed.value ? parsed.value.ref : null;
    const authorized = gateFor(ctx.settings.identity).requireAdmin(SESSION_ACTION, actor);
    if (!authorized.ok) {
      services.audit.record({
        action,
        actor,
        target,
        outcome: "refused",
        detail: { via: "command", command: commandText, cause: authorized.error.cause },
      });
      return `⛔ ${authorized.error.reason}`;
    }
    if (!parsed.ok) {
      const reason = parsed.error.kind === "invalid" ? parsed.error.reason : parsed.error.kind;
      services.audit.record({
        action,
        actor,
        target: null,
        outcome: "invalid",
        detail: { via: "command", command: commandText, reason },
      });
      return args.trim() ? `${reason}\n${SESSION_USAGE}` : SESSION_USAGE;
    }
    // Its answers name other chats, private ones included, and an export holds their memory,
    // summaries and log: said in a group or channel, everyone there would read them.
    if (!isOneToOneKey(ctx.chat.key)) {
      services.audit.record({
        action,
        actor,
        target,
        outcome: "refused",
        detail: { via: "command", command: commandText, cause: "shared_chat" },
      });
      return "⛔ /session 只能在与我的私聊中使用：它的回答会列出其他会话（包括私聊）的名称和内容。";
    }
    const admin = services.sessionAdmin;
    if (!admin) return "会话管理在此部署中不可用。";
    const answer = await runSessionOperation(parsed.value, {
      registry: admin.registry,
      personAccounts: admin.personAccounts,
      audit: (entry) =>
        services.audit.record({ ...entry, actor, detail: { via: "command", ...entry.detail } }),
      now: services.clock.now(),
      timeZone: ctx.settings.calendar.timeZone,
      commandText,
    });
    if (parsed.value.op === "export" && answer.text.length > CHAT_EXPORT_CHARS)
      return `${answer.text.slice(0, CHAT_EXPORT_CHARS)}\n…（已截断；完整导出用 GET /api/sessions/<id>/export 或 npm run akasha -- sessions export）`;
    return answer.text;
  },
};
