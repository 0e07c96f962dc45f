/**
 * `/whoami` and `/claim`: the owner's first day (docs/identity.md#the-first-admin). `/whoami`
 * names the sender's own account key (and, in a group, the group's chat key) — nothing about
 * anyone else, no person, no other account, no private chat. `/claim <code>` makes the sender
 * the first admin while none is declared, only in a private chat with the bot; the code is a
 * credential and never appears in a reply, an audit row or anything stored (the turn sees
 * only its digest, `event.claimDigest`).
 */
import { gateFor } from "../../authorization/authorization-gate";
import { isOneToOneKey } from "../../chat/chat-address";
import { changeList } from "../../config/setting-lists";
import { isStored } from "../../config/settings";
import { saveSettingsEdit } from "../../config/settings-admin";
import { effectiveSettings } from "../../config/settings-edit";
import type { ClaimRedemption } from "../../identity/admin-claim";
import type { AuditOutcome } from "../../kernel/audit";
import type { Command } from "../command";
import type { TurnContext } from "../turn-context";
import type { TurnServices } from "../turn-services";

const NEW_CODE = "请重新运行 npm run akasha -- admins claim 生成新口令，再私聊发给我。";

export const whoamiCommand: Command = {
  name: "whoami",
  usage: "/whoami",
  summary: "查看你自己的账号（在群里还有本群的聊天标识）",
  async run(_args, ctx) {
    const account = ctx.sender?.account;
    if (!account) return "这条消息没有可识别的发送者。";
    const admin = gateFor(ctx.settings.identity).isAdmin(account) ? "（管理员）" : "";
    if (isOneToOneKey(ctx.chat.key)) return `你的账号：${account}${admin}`;
    const kept = isStored(ctx.settings, ctx.chat.key, ctx.chat.targetType)
      ? "本群的聊天记录会被保存（已关注）。"
      : "本群未关注：聊天记录不保存，管理员在群里发送 /follow 可开启记忆。";
    return [`你在本群的账号：${account}${admin}`, `本群：${ctx.chat.key}`, kept].join("\n");
  },
};

const REDEMPTION: Record<Exclude<ClaimRedemption, "redeemed">, string> = {
  unknown: "口令不对",
  expired: "口令已过期（10 分钟内有效）",
  used: "口令已经用过了",
  revoked: "口令已作废（之后又生成过新口令，或它曾在群里发出）",
};

export const claimCommand: Command = {
  name: "claim",
  usage: "/claim <口令>",
  summary: "首位管理员：私聊发送 npm run akasha -- admins claim 给出的一次性口令（只在还没有管理员时有效）",
  async run(_args, ctx, services) {
    const account = ctx.sender?.account ?? null;
    const audit = (outcome: AuditOutcome, cause: string) =>
      services.audit.record({
        action: "admins.claim",
        actor: account,
        target: account,
        outcome,
        detail: { via: "command", cause },
      });
    const digest = ctx.event.claimDigest ?? null;
    if (!isOneToOneKey(ctx.chat.key)) {
      // Said where others read it: the code is burnt, whoever sent it.
      const revoked =
        digest !== null && services.claims ? await services.claims.revoke({ digest, at: ctx.now }) : false;
      audit("refused", revoked ? "shared_chat_revoked" : "shared_chat");
      return `⛔ /claim 只能在与我的私聊中使用。${revoked ? `这个口令已在这里公开，已作废；${NEW_CODE}` : ""}`;
    }
    if (account === null) {
      audit("refused", "no-sender");
      return "⛔ 这条消息没有可识别的发送者。";
    }
    if (!services.claims) return "此部署不支持用口令认领管理员；请用 npm run akasha -- admins add <账号>。";
    return claimIn(digest, account, ctx, services, audit);
  },
};

async function claimIn(
  digest: string | null,
  account: string,
  ctx: TurnContext,
  services: TurnServices,
  audit: (outcome: AuditOutcome, cause: string) => void,
): Promise<string> {
  const layers = await services.settingsAdmin.layers();
  const current = layers.ok ? effectiveSettings(layers.value) : layers;
  if (!layers.ok || !current.ok) {
    audit("failed", "settings-unreadable");
    return "⛔ 读取设置失败，什么都没有改变；请运行 npm run akasha -- doctor 查看原因。";
  }
  if (current.value.settings.identity.admins.length > 0) {
    audit("refused", "admin-exists");
    return "⛔ 已经有管理员了，口令认领只用于第一位管理员。请现有管理员运行 npm run akasha -- admins add <账号>。";
  }
  if (digest === null) {
    audit("invalid", "no-code");
    return "用法：/claim <口令>。口令由 npm run akasha -- admins claim 生成，10 分钟内有效，只能用一次。";
  }
  const redeemed = await services.claims?.redeem({ digest, at: ctx.now, account });
  if (redeemed !== "redeemed") {
    audit("refused", redeemed ?? "unavailable");
    return `⛔ ${REDEMPTION[redeemed ?? "unknown"]}，什么都没有改变。${NEW_CODE}`;
  }
  const change = changeList(layers.value, { path: "identity.admins", op: "add", entry: account });
  const saved =
    change.ok &&
    change.value.edit !== null &&
    (await saveSettingsEdit(
      services.settingsAdmin,
      layers.value,
      change.value.edit,
      {
        action: "set",
        path: "identity.admins",
        extra: { command: "claim", enabledIdentity: change.value.enabledIdentity },
      },
      { actor: account, via: "command", at: services.clock.now(), chatKey: ctx.chat.key },
    ));
  if (!saved) {
    audit("failed", change.ok ? "concurrent-change" : "invalid-settings");
    return `⛔ 口令已用掉，但保存设置失败（${change.ok ? "设置在此期间被修改" : change.error.reason}），你还不是管理员。${NEW_CODE}`;
  }
  audit("ok", "first-admin");
  return [
    `✅ 你（${account}）现在是管理员${change.value.enabledIdentity ? "，身份系统已开启" : ""}。约 10 秒内生效。`,
    "下一步：在要我记住的群里 @我 发送 /follow，或运行 npm run akasha -- follow add <群的聊天标识>（在群里发 /whoami 可查看）。",
    "注意：QQ 官方机器人在群里给你的账号与私聊不同；要在群里用管理员命令，先在群里发 /whoami，再运行 npm run akasha -- admins add <那个账号>。",
  ].join("\n");
}
