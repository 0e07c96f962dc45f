/**
 * `/memory` and `/forget <id>`: a person sees and deletes what the bot keeps about them, as far
 * as this chat may show it (docs/memory.md#your-own-memory). Both answer from D1 as it is:
 * `/forget` says 已忘记 only when the store erased the item. In a group every reply is built
 * from the asker's public items alone, so nothing in it depends on a private item.
 */
import type { AuditOutcome } from "../../kernel/audit";
import { learnedInPrivate } from "../../memory/origin";
import { type OwnItem, ownMemory, parseOwnId, resolveOwnId } from "../../memory/own-memory";
import { type Scope, scopeLabel } from "../../memory/scope";
import type { Command } from "../command";
import { forgetInTurn } from "../forget-in-turn";
import { scopesOf } from "../memory-scopes";
import type { TurnContext } from "../turn-context";
import type { TurnServices } from "../turn-services";

/** Lines a reply lists; the count says how many more there are. */
const SHOWN = 30;
const TEXT_CHARS = 80;

const FORGET_USAGE =
  "用法：/forget <id>（id 是 /memory 列表每行开头的 6 位以上字母和数字，例如 /forget 1a2b3c；一次删一条）";
/** Said in every group reply, whatever the person keeps elsewhere: it depends on nothing stored. */
const GROUP_NOTE = "（群聊里只列出你公开的记忆；在与我的私聊里发 /memory 可以看到全部）";
const LEVEL: Record<string, string> = { public: "公开", private: "私密", secret_like: "保密" };

function line(own: OwnItem, session: Scope, privateChat: boolean): string {
  const text = own.item.text.length > TEXT_CHARS ? `${own.item.text.slice(0, TEXT_CHARS)}…` : own.item.text;
  const where = scopeLabel(own.item.scope, session);
  const level = privateChat ? `，${LEVEL[own.item.sensitivity] ?? own.item.sensitivity}` : "";
  const past = own.item.status === "superseded" ? "，已过去" : "";
  return `${own.shortId} · ${text}（${where}${level}${past}）`;
}

export const memoryListCommand: Command = {
  name: "memory",
  usage: "/memory",
  summary: "列出我记着的关于你的事（群里只列公开的），每条带一个 id",
  async run(_args, ctx, services) {
    const { input, scopes } = await scopesOf(ctx, services);
    const privateChat = learnedInPrivate(input.session);
    const note = privateChat ? "" : `\n${GROUP_NOTE}`;
    const list = await ownMemory(services.memory.store, {
      scopes: input,
      account: ctx.sender?.account ?? null,
    });
    if (list.length === 0)
      return `${privateChat ? "我没有记着关于你的事。" : "在这里我没有记着关于你、可以在群里显示的事。"}${note}`;
    const more = list.length > SHOWN ? `，列出最重要的 ${SHOWN} 条` : "";
    return (
      [
        `我记着的关于你的事（共 ${list.length} 条${more}）：`,
        ...list.slice(0, SHOWN).map((o) => line(o, scopes.session, privateChat)),
        "删除一条：/forget <id>",
      ].join("\n") + note
    );
  },
};

async function forgetOwn(typed: string, ctx: TurnContext, services: TurnServices): Promise<string> {
  const audit = (outcome: AuditOutcome, target: string | null, detail: Record<string, string> = {}) =>
    services.audit.record({
      action: "memory.forget",
      actor: ctx.sender?.account ?? null,
      target,
      outcome,
      detail: { via: "command", ...detail },
    });
  const prefix = parseOwnId(typed);
  if (!prefix) {
    audit("invalid", null);
    return FORGET_USAGE;
  }
  // Echoed only once it is known to be letters and digits.
  const shown = typed.trim().toLowerCase();
  const notFound = () => {
    audit("refused", shown, { cause: "not-found" });
    return `找不到你在这里可以删除的记忆 ${shown}（发 /memory 查看这里列出的记忆和它们的 id）`;
  };
  const { input } = await scopesOf(ctx, services);
  const list = await ownMemory(services.memory.store, {
    scopes: input,
    account: ctx.sender?.account ?? null,
  });
  const target = resolveOwnId(list, prefix);
  if (target.kind === "not-found") return notFound();
  if (target.kind === "ambiguous") {
    audit("refused", shown, { cause: "ambiguous" });
    return `有 ${target.count} 条记忆的 id 以 ${shown} 开头，什么都没有删除；请多输入几位（见 /memory）。`;
  }
  const nodeId = target.item.nodeId;
  // The one forget path (memory_forget's), re-checked against the turn's scopes; the person's own
  // command erases (docs/decisions/0940-a-persons-forget-erases.md).
  const forgotten = await forgetInTurn(ctx, services, {
    nodeId,
    scopes: input,
    reason: "/forget",
    how: "erase",
  });
  if (!forgotten.ok) return notFound();
  audit("ok", nodeId);
  return `已忘记：${forgotten.value.text}（之后不会再提起）`;
}

export const forgetCommand: Command = {
  name: "forget",
  usage: "/forget <id>",
  summary: "删除 /memory 列出的一条关于你的记忆",
  run: (args, ctx, services) => forgetOwn(args, ctx, services),
};
