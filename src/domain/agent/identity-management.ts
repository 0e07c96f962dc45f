/**
 * Identity management as admins use it, shared by the `/identity` command and the
 * `identity_manage` tool: check the gate, run the operation, audit it, answer in text.
 * Every use is audited, refusals and mistakes included.
 */

import { gateFor } from "../authorization/authorization-gate";
import { isOneToOneKey } from "../chat/chat-address";
import {
  type IdentityAdminError,
  linkAccount,
  unlinkAccount,
  type WhoisReport,
  whois,
} from "../identity/identity-admin";
import type { AuditOutcome } from "../kernel/audit";
import { formatLocalTime } from "../kernel/local-time";
import { PRIVATE_BY_ORIGIN_RULE } from "../memory/origin";
import type { TurnContext } from "./turn-context";
import type { TurnServices } from "./turn-services";

export type IdentityOperation =
  | { readonly op: "link"; readonly account: string; readonly person: string }
  | { readonly op: "unlink"; readonly account: string }
  /** `account` null = the sender's own account. */
  | { readonly op: "whois"; readonly account: string | null };

export type IdentityAnswer = { readonly ok: boolean; readonly text: string };

/** Why an identity operation is refused outside the admin's private chat with the bot. */
export const SHARED_CHAT_REFUSAL =
  "⛔ 身份管理只能在与我的私聊中使用：它的回答会把账号和人物、私聊对应起来。";

/** The gate's action name for every identity operation. */
export const IDENTITY_ACTION = "identity_manage";

export async function manageIdentity(
  operation: IdentityOperation,
  via: "command" | "tool",
  ctx: TurnContext,
  services: TurnServices,
): Promise<IdentityAnswer> {
  const actor = ctx.sender?.account ?? null;
  const target = operation.account ?? actor;
  const audit = (outcome: AuditOutcome, detail: Record<string, string | number | boolean | null> = {}) =>
    services.audit.record({
      action: `identity.${operation.op}`,
      actor,
      target,
      outcome,
      detail: { via, ...detail },
    });

  const gate = gateFor(ctx.settings.identity);
  const authorized = gate.requireAdmin(IDENTITY_ACTION, actor);
  if (!authorized.ok) {
    audit("refused", { cause: authorized.error.cause });
    return { ok: false, text: `⛔ ${authorized.error.reason}` };
  }
  // Its answers tie accounts to people and name the chats they were seen in, private ones
  // included: said in a group or channel, everyone there would read them.
  if (!isOneToOneKey(ctx.chat.key)) {
    audit("refused", { cause: "shared_chat" });
    return { ok: false, text: SHARED_CHAT_REFUSAL };
  }
  const deps = {
    identity: ctx.settings.identity,
    directory: services.directory,
    now: services.clock.now(),
    by: actor,
  };

  switch (operation.op) {
    case "link": {
      const linked = await linkAccount(deps, operation.account, operation.person);
      if (!linked.ok) return refusal(linked.error, audit);
      const { account, personId, created, previous } = linked.value;
      audit("ok", { person: personId, created, previous });
      const was = previous === null ? "" : previous === personId ? "（本来就是）" : `（之前：${previous}）`;
      return {
        ok: true,
        // The link gives the person's private chats each other's items: say what stays there.
        text: `已将 ${account} 关联到人物 ${personId}${created ? "（新建人物）" : ""}${was}。${PRIVATE_BY_ORIGIN_RULE}`,
      };
    }
    case "unlink": {
      const unlinked = await unlinkAccount(deps, operation.account);
      if (!unlinked.ok) return refusal(unlinked.error, audit);
      audit("ok", { previous: unlinked.value.previous });
      return {
        ok: true,
        text: `已解除 ${unlinked.value.account} 的人物关联${unlinked.value.previous ? `（之前：${unlinked.value.previous}）` : ""}；它不会再被自动关联，除非管理员重新 link。`,
      };
    }
    case "whois": {
      if (target === null) {
        audit("invalid", { reason: "no account" });
        return { ok: false, text: "用法：/identity whois <account>（这条消息没有发送者账号）" };
      }
      const report = await whois(deps, target);
      if (!report.ok) return refusal(report.error, audit);
      audit("ok", { person: report.value.resolution.personId });
      return {
        ok: true,
        text: formatWhois(report.value, gate.isAdmin(report.value.account), ctx.settings.calendar.timeZone),
      };
    }
  }
}

function refusal(
  error: IdentityAdminError,
  audit: (outcome: AuditOutcome, detail?: Record<string, string | null>) => void,
): IdentityAnswer {
  if (error.kind === "invalid") {
    audit("invalid", { field: error.field });
    return { ok: false, text: `参数 ${error.field} 无效：${error.reason}` };
  }
  audit("refused", { reason: "conflict" });
  return { ok: false, text: error.reason };
}

const VIA: Record<WhoisReport["resolution"]["via"], string> = {
  config: "配置声明",
  admin: "管理员关联",
  union: "union_openid 自动关联",
  detached: "管理员已解除关联",
  none: "未关联",
};

function formatWhois(report: WhoisReport, admin: boolean, timeZone: string): string {
  const { resolution } = report;
  const lines = [`账号 ${report.account}`];
  if (resolution.personId === null) lines.push(`人物：无（${VIA[resolution.via]}）`);
  else {
    const name = report.personName ? ` “${report.personName}”` : "";
    lines.push(
      `人物：${resolution.personId}${name}（${VIA[resolution.via]}${resolution.declared ? "，已声明" : ""}）`,
    );
  }
  for (const other of report.otherAccounts) lines.push(`同一人物的账号：${other.account}（${other.via}）`);
  for (const seen of report.seen) {
    const when = formatLocalTime(seen.lastSeen, timeZone);
    const name = seen.displayName ? ` “${seen.displayName}”` : "";
    lines.push(`出现在 ${seen.chatKey}${name}${seen.role ? `（${seen.role}）` : ""}，最近 ${when}`);
  }
  lines.push(`管理员：${admin ? "是" : "否"}`);
  return lines.join("\n");
}
