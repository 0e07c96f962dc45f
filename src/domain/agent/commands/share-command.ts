/**
 * `/share <id>`: the person makes one of their private items shareable on purpose, in their own
 * private chat (docs/memory.md#private-by-origin). Audited, refusals included.
 */
import type { AuditOutcome } from "../../kernel/audit";
import { share } from "../../memory/share";
import type { Command } from "../command";
import { turnRunId } from "../memory-run-id";
import { scopesOf } from "../memory-scopes";

const USAGE =
  "用法：/share <记忆 id>（在与我的私聊中；id 见记住时的回复或 memory_search 的结果，形如 m_xxxx）";

export const shareCommand: Command = {
  name: "share",
  usage: "/share <记忆 id>",
  summary: "（私聊）把你在私聊里让我记住的一条记忆公开，此后群聊里也会提起",
  async run(args, ctx, services) {
    const nodeId = args.trim().replace(/^#/, "");
    const audit = (outcome: AuditOutcome, detail: Record<string, string> = {}) =>
      services.audit.record({
        action: "memory.share",
        actor: ctx.sender?.account ?? null,
        target: nodeId || null,
        outcome,
        detail: { via: "command", ...detail },
      });
    if (!/^m_[0-9a-z]{1,40}$/.test(nodeId)) {
      audit("invalid");
      return USAGE;
    }
    const { input } = await scopesOf(ctx, services);
    const shared = await share(services.memory.store, {
      nodeId,
      scopes: input,
      runId: turnRunId(ctx, `share:${nodeId}`),
      chatKey: ctx.chat.key,
      now: ctx.now,
    });
    if (!shared.ok) {
      audit("refused", { cause: shared.error.kind });
      return shared.error.kind === "not-here"
        ? "⛔ /share 只能在与我的私聊中使用：公开的是你自己在私聊里让我记住的事。"
        : `找不到你可以公开的记忆 ${nodeId}`;
    }
    audit("ok");
    return `已公开：${shared.value.text}（此后在群聊里也可能提起；不想公开了可以 /remember 同样的内容并加“别告诉别人”）`;
  },
};
