/**
 * `memory_search`, `memory_write`, `memory_forget`. None takes a scope: reads go through the
 * turn's readable scopes, writes to the scope the kind maps to, forgetting only within the
 * scopes the turn may write (docs/memory.md#scopes, docs/invariants.md#no-scope-parameter).
 */
import { isSensitivity } from "../../memory/memory";
import { sharedStatement } from "../../memory/origin";
import { recalledText, recallMemory } from "../../memory/recall";
import { remember } from "../../memory/remember";
import { isMemoryKind, MEMORY_KINDS, scopeLabel } from "../../memory/scope";
import { forgetInTurn } from "../forget-in-turn";
import { turnRunId } from "../memory-run-id";
import { recallDepsOf, scopesOf } from "../memory-scopes";
import { speakerOf } from "../memory-speaker";
import { memoryWriteOptions } from "../memory-write-options";
import { type Tool, toolError, toolOk } from "../tool";

function field(args: unknown, name: string): unknown {
  return typeof args === "object" && args !== null ? (args as Record<string, unknown>)[name] : undefined;
}

export const memorySearchTool: Tool = {
  spec: {
    name: "memory_search",
    description:
      "搜索你的长期记忆（当前对话可见的记忆：说话人自己的、本聊天的和全局的）。返回记忆内容、来源和 id。",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string", description: "要找的内容" },
        limit: { type: "integer", minimum: 1, maximum: 20, description: "最多返回多少条，默认 5" },
      },
      required: ["query"],
      additionalProperties: false,
    },
  },
  requiresAdmin: false,
  scope: "current_chat",
  async run(args, ctx, services) {
    const query = field(args, "query");
    if (typeof query !== "string" || query.trim() === "") return toolError("query 必须是非空字符串");
    const rawLimit = field(args, "limit");
    const max = ctx.settings.memory.retrieval.searchLimit;
    const limit =
      typeof rawLimit === "number" && Number.isFinite(rawLimit)
        ? Math.max(1, Math.min(max, Math.trunc(rawLimit)))
        : Math.min(5, max);
    const { scopes } = await scopesOf(ctx, services);
    const found = await recallMemory(recallDepsOf(ctx, services), {
      text: query,
      scopes,
      soft: ctx.settings.memory.retrieval.softScope,
      limit,
      now: ctx.now,
      halfLifeDays: ctx.settings.memory.retrieval.recencyHalfLifeDays,
      decay: ctx.settings.memory.decay,
      timeZone: ctx.settings.calendar.timeZone,
    });
    if (found.length === 0) return toolOk("没有找到相关记忆。");
    return {
      ...toolOk(found.map((r) => `[${r.item.kind}] ${recalledText(r)}（${r.citation}）`).join("\n")),
      shownMemory: found.map((r) => r.item.nodeId),
      marked: found.some((r) => r.item.sensitivity !== "public"),
    };
  },
};

export const memoryWriteTool: Tool = {
  spec: {
    name: "memory_write",
    description:
      "把值得长期记住的一件事写进记忆。用第三人称写清楚是谁。存放位置由系统根据 kind 决定。" +
      "对方要求保密或不要在别处提起时，sensitivity 设为 secret_like 或 private。私聊里记下的一律只在对方的私聊里提起，" +
      "除非对方自己说可以告诉大家。不要写入密码、令牌等凭据。",
    parameters: {
      type: "object",
      properties: {
        kind: {
          type: "string",
          enum: [...MEMORY_KINDS],
          description:
            "preference/fact/task 关于说话人；rule 是本聊天的规矩；decision/procedure/warning/summary 是共享知识",
        },
        text: { type: "string", maxLength: 500, description: "要记住的内容" },
        importance: { type: "number", minimum: 0, maximum: 1, description: "重要程度，默认 0.6" },
        sensitivity: { type: "string", enum: ["public", "private", "secret_like"], description: "敏感程度" },
      },
      required: ["kind", "text"],
      additionalProperties: false,
    },
  },
  requiresAdmin: false,
  scope: "current_chat",
  async run(args, ctx, services) {
    const kind = field(args, "kind");
    const text = field(args, "text");
    const sensitivity = field(args, "sensitivity");
    if (!isMemoryKind(kind)) return toolError(`kind 必须是 ${MEMORY_KINDS.join("/")} 之一`);
    if (typeof text !== "string" || text.trim() === "") return toolError("text 必须是非空字符串");
    if (sensitivity !== undefined && !isSensitivity(sensitivity))
      return toolError("sensitivity 必须是 public/private/secret_like");
    const importance = field(args, "importance");
    const { input, scopes } = await scopesOf(ctx, services);
    const written = await remember(
      services.memory.store,
      {
        text,
        origin: "tool",
        kind,
        ...(typeof importance === "number" ? { importance } : {}),
        ...(isSensitivity(sensitivity) ? { sensitivity } : {}),
        // Only the person's own message can make a private chat's item public, never the model:
        // and only for what that message says (origin.ts, sharedStatement).
        shared: sharedStatement(ctx.text, text, speakerOf(ctx).name),
        ...(ctx.nearRequest === true ? { asked: "private" as const } : {}),
        scopes: input,
        speaker: speakerOf(ctx),
        account: ctx.sender?.account ?? null,
        messageId: ctx.event.message?.id ?? null,
        runId: turnRunId(ctx, `write:${text.trim()}`),
        chatKey: ctx.chat.key,
        now: ctx.now,
      },
      memoryWriteOptions(ctx, services),
    );
    if (!written.ok)
      return toolError(
        written.error.kind === "not-stored"
          ? `没有写入：本聊天的存储已关闭，${written.error.of} 条中存下了 ${written.error.stored} 条。不要告诉用户已经记住。`
          : `没有写入：${written.error.reason}`,
      );
    return toolOk(
      written.value
        .map((w) =>
          w.decision === "duplicate"
            ? `已经记得：${w.item.text}（#${w.item.nodeId}）`
            : w.decision === "merge"
              ? `与已有的一条说的是同一件事，已合并进去，没有新增：${w.item.text}（#${w.item.nodeId}）`
              : `已记住：${w.item.text}（${scopeLabel(w.item.scope, scopes.session)}，${w.item.sensitivity}，#${w.item.nodeId}）`,
        )
        .join("\n"),
    );
  },
};

export const memoryForgetTool: Tool = {
  spec: {
    name: "memory_forget",
    description: "忘记一条记忆（按 memory_search 结果里的 id）。只能忘记当前对话可以写入的记忆。",
    parameters: {
      type: "object",
      properties: {
        id: { type: "string", description: "记忆 id，形如 m_xxxx" },
        reason: { type: "string", maxLength: 200, description: "为什么忘记" },
      },
      required: ["id"],
      additionalProperties: false,
    },
  },
  requiresAdmin: false,
  scope: "current_chat",
  async run(args, ctx, services) {
    const id = field(args, "id");
    if (typeof id !== "string" || !/^m_[0-9a-z]{1,40}$/.test(id.trim().replace(/^#/, ""))) {
      return toolError("id 必须是记忆 id（m_ 开头）");
    }
    const nodeId = id.trim().replace(/^#/, "");
    const reason = field(args, "reason");
    const { input } = await scopesOf(ctx, services);
    const forgotten = await forgetInTurn(ctx, services, {
      nodeId,
      scopes: input,
      reason:
        typeof reason === "string" && reason.trim()
          ? `memory_forget: ${reason.trim().slice(0, 200)}`
          : "memory_forget",
      // A model's call, which others' words can steer: archived, so an admin can restore it.
      how: "archive",
    });
    if (!forgotten.ok) return toolError(`找不到可以忘记的记忆 ${nodeId}`);
    return toolOk(`已忘记：${forgotten.value.text}`);
  },
};
