/** `/remember`, `/reset` and the plain-language "记住…" / "remember that …" intent. */
import { learnedInPrivate, sharedStatement, withoutShareMarkers } from "../../memory/origin";
import { remember } from "../../memory/remember";
import { explicitRequest } from "../../memory/rule-extractor";
import { type Scope, sameScope, scopeLabel } from "../../memory/scope";
import { PERSONAL_DATA_REFUSAL } from "../../memory/sensitivity";
import type { Command } from "../command";
import type { Intent } from "../intent";
import { turnRunId } from "../memory-run-id";
import { scopesOf } from "../memory-scopes";
import { speakerOf } from "../memory-speaker";
import { memoryWriteOptions } from "../memory-write-options";
import { resetReply } from "../short-term-context";
import type { TurnContext } from "../turn-context";
import type { TurnServices } from "../turn-services";

async function rememberNow(text: string, ctx: TurnContext, services: TurnServices): Promise<string> {
  const { input, scopes } = await scopesOf(ctx, services);
  const written = await remember(
    services.memory.store,
    {
      text,
      origin: "explicit",
      // Shared only when the permission covers all it says: "我确诊了糖尿病。我升职了，可以告诉大家"
      // allows the promotion, and one item of both stays private (origin.ts, sharedStatement).
      shared: sharedStatement(text, withoutShareMarkers(text), null),
      ...(ctx.nearRequest === true ? { asked: "private" as const } : {}),
      scopes: input,
      speaker: speakerOf(ctx),
      account: ctx.sender?.account ?? null,
      messageId: ctx.event.message?.id ?? null,
      runId: turnRunId(ctx, "remember"),
      chatKey: ctx.chat.key,
      now: ctx.now,
    },
    memoryWriteOptions(ctx, services),
  );
  if (!written.ok) {
    if (written.error.kind === "credential")
      return written.error.reason === PERSONAL_DATA_REFUSAL
        ? "这看起来像身份证号、银行卡号或手机号，我不会记下来。"
        : "这看起来像密码、令牌或密钥，我不会记下来。";
    if (written.error.kind === "not-writable") return "这里的记忆只有管理员能写入，什么都没有记下。";
    if (written.error.kind === "not-stored")
      return written.error.stored === 0
        ? "本聊天的存储已关闭（管理员用 /session store 关闭了它），所以我什么都没有记下。"
        : `${written.error.of} 条中只记下了 ${written.error.stored} 条：本聊天的存储关闭了一部分写入。`;
    return "没听清要记住什么，用法：/remember <内容>";
  }
  const privateChat = learnedInPrivate(input.session);
  return written.value
    .map((w) => {
      const where = scopeLabel(w.item.scope, scopes.session);
      const secret = w.item.sensitivity === "public" ? "" : `，${whereItStays(w.item.scope, scopes.session)}`;
      // Said to its owner alone: how to make it shareable on purpose, or that their permission
      // made it so — their own group turns read their public items — and how to take it back.
      const own = w.item.scope.type === "person" || w.item.scope.type === "account";
      const howToShare = !privateChat
        ? ""
        : w.item.sensitivity !== "public"
          ? `；要公开请发 /share ${w.item.nodeId}`
          : own
            ? `；按你说的，你在群里和我说话时也会提起；不想公开请发 /forget ${w.item.nodeId}`
            : "";
      if (w.decision === "duplicate") return `这个我已经记得了：${w.item.text}${secret}${howToShare}`;
      // Said truthfully: nothing new was stored, the earlier item took it in (merge.ts).
      if (w.decision === "merge")
        return `这和我记得的一条说的是同一件事，已合并到那一条里：${w.item.text}（${where}${secret}${howToShare}）`;
      return `好的，记住了：${w.item.text}（${where}${secret}${howToShare}）`;
    })
    .join("\n");
}

/**
 * Where a private or secret item will be recalled, as the scope rules make it true: a person's
 * (or account's) items only in their own private chats, a chat's items only in that chat.
 */
function whereItStays(scope: Scope, session: Scope): string {
  if (scope.type === "person" || scope.type === "account") return "只会在你和我的私聊里提起";
  if (sameScope(scope, session)) return "只会在本聊天里提起";
  return "不会在别处提起";
}

export const rememberCommand: Command = {
  name: "remember",
  usage: "/remember <内容>",
  summary:
    "马上记住一件事（私聊里记的只在你的私聊里提起，加“可以告诉大家”才公开；群里加“别告诉别人”则只在你的私聊或本聊天里提起）",
  async run(args, ctx, services) {
    if (args.trim() === "") return "用法：/remember <内容>，例如 /remember 我喜欢猫";
    return rememberNow(args, ctx, services);
  },
};

export const rememberIntent: Intent = {
  name: "remember",
  match: (text) => explicitRequest(text.replace(/^(?:@\S+\s*)+/u, "")),
  run: (args, ctx, services) => rememberNow(args, ctx, services),
};

export const resetCommand: Command = {
  name: "reset",
  usage: "/reset",
  summary: "清空本聊天的短期上下文（长期记忆保留）",
  async run(_args, ctx, services) {
    const outcome = await services.shortTermContext.reset({
      eventId: ctx.event.eventId,
      actor: ctx.sender?.account ?? null,
      via: "command",
    });
    return { text: resetReply(outcome), resetContext: outcome.ok };
  },
};
