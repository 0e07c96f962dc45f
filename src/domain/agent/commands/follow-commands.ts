/**
 * `/follow` and `/unfollow`: an admin turns a group's log (and so its history, summaries and
 * dreaming) on or off from the chat (docs/storage.md#messages). In a group they act on that
 * group; in an admin's private chat they take a chat key (`/follow qq:group:<id>`), so naming
 * another group never happens where others read it. The change is `follow.groups` through the
 * one settings write path, audited; refusals and no-ops go to the turn's audit trail.
 */
import { gateFor } from "../../authorization/authorization-gate";
import { isOneToOne, isOneToOneKey, parseChatKey } from "../../chat/chat-address";
import { changeList } from "../../config/setting-lists";
import { saveSettingsEdit } from "../../config/settings-admin";
import type { AuditOutcome } from "../../kernel/audit";
import type { Command } from "../command";
import type { TurnContext } from "../turn-context";
import type { TurnServices } from "../turn-services";

const FOLLOW_ACTION = "follow_manage";

type Op = "add" | "remove";

/** The chat the command is about, or the reason it has none. */
function targetOf(args: string, ctx: TurnContext): { chat: string } | { error: string } {
  const raw = args.trim();
  if (!isOneToOneKey(ctx.chat.key)) {
    if (raw !== "")
      return {
        error: "在群里使用时不带参数，作用于本群；要操作其他群，请在与我的私聊中发送 /follow <聊天标识>。",
      };
    return { chat: ctx.chat.key };
  }
  if (raw === "")
    return { error: "在私聊中请写出群的聊天标识，例如 /follow qq:group:<id>（在群里发 /whoami 可查看）。" };
  const parsed = parseChatKey(raw);
  if (!parsed.ok) return { error: `${raw.slice(0, 80)} 不是聊天标识：${parsed.error.reason}` };
  if (isOneToOne(parsed.value.targetType) || parsed.value.targetType === "unknown")
    return { error: "只有群和频道需要关注；私聊的记录总是保存。" };
  return { chat: raw };
}

async function follow(op: Op, args: string, ctx: TurnContext, services: TurnServices): Promise<string> {
  const actor = ctx.sender?.account ?? null;
  const name = op === "add" ? "follow" : "unfollow";
  const audit = (outcome: AuditOutcome, target: string | null, cause: string) =>
    services.audit.record({
      action: `follow.${op}`,
      actor,
      target,
      outcome,
      detail: { via: "command", cause },
    });
  const authorized = gateFor(ctx.settings.identity).requireAdmin(FOLLOW_ACTION, actor);
  if (!authorized.ok) {
    audit("refused", null, authorized.error.cause);
    return `⛔ ${authorized.error.reason}`;
  }
  const target = targetOf(args, ctx);
  if ("error" in target) {
    audit("invalid", null, "target");
    return `⛔ ${target.error}什么都没有改变。`;
  }
  const layers = await services.settingsAdmin.layers();
  const change = layers.ok
    ? changeList(layers.value, { path: "follow.groups", op, entry: target.chat })
    : layers;
  if (!layers.ok || !change.ok) {
    audit("failed", target.chat, "settings");
    return `⛔ 读取或校验设置失败（${change.ok ? "" : `${change.error.field} ${change.error.reason}`}），什么都没有改变。`;
  }
  const { before, edit } = change.value;
  if (before.includes("*")) {
    audit("ok", target.chat, "follow-all");
    return op === "add"
      ? "follow.groups 含 *：所有群的记录都已在保存，不需要单独关注。"
      : "⛔ follow.groups 含 *（关注所有群），不能单独取消一个群；请先用 npm run akasha -- follow remove '*' 去掉它。什么都没有改变。";
  }
  if (edit === null) {
    audit("ok", target.chat, "unchanged");
    return op === "add"
      ? `${target.chat} 已经在关注列表中，记录已在保存。`
      : `${target.chat} 不在关注列表中，什么都没有改变。`;
  }
  const saved =
    layers.ok &&
    (await saveSettingsEdit(
      services.settingsAdmin,
      layers.value,
      edit,
      { action: "set", path: "follow.groups", extra: { command: name, chat: target.chat } },
      { actor, via: "command", at: services.clock.now(), chatKey: ctx.chat.key },
    ));
  if (!saved) {
    audit("failed", target.chat, "concurrent-change");
    return "⛔ 设置在此期间被另一处修改了，什么都没有改变；请再发一次。";
  }
  return op === "add"
    ? `✅ 已关注 ${target.chat}：约 10 秒后开始保存这里的聊天记录（用于历史搜索、每日总结和记忆）。`
    : `✅ 已取消关注 ${target.chat}：约 10 秒后不再保存新的聊天记录；已保存的记录按保留期删除。`;
}

export const followCommand: Command = {
  name: "follow",
  usage: "/follow [聊天标识]",
  summary: "（管理员）关注本群：保存聊天记录，开启历史、总结和记忆",
  run: (args, ctx, services) => follow("add", args, ctx, services),
};

export const unfollowCommand: Command = {
  name: "unfollow",
  usage: "/unfollow [聊天标识]",
  summary: "（管理员）取消关注本群：不再保存聊天记录",
  run: (args, ctx, services) => follow("remove", args, ctx, services),
};
