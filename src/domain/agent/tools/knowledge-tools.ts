/**
 * `kb_search` and `context_read`. Neither takes a scope or a collection: the readable
 * collections come from settings for the current chat (docs/invariants.md#no-scope-parameter).
 */

import {
  profileOptions,
  type ReadMode,
  readableCollections,
  readContext,
  searchKnowledge,
} from "../../knowledge/knowledge-search";
import { formatCitation } from "../../retrieval/citation";
import type { RetrievedItem } from "../../retrieval/retrieved-item";
import { type Tool, toolError, toolOk } from "../tool";
import { turnSearchQuery } from "../turn-query-rewrite";

function arg(args: unknown, name: string): unknown {
  return typeof args === "object" && args !== null ? (args as Record<string, unknown>)[name] : undefined;
}

export function formatItems(items: readonly RetrievedItem[]): string {
  return items
    .map(
      (it, i) =>
        `[${i + 1}] ${it.text}\n（出处：${formatCitation(it.citation)}${it.via === "neighbour" ? "，相邻段落" : ""}）`,
    )
    .join("\n\n");
}

export const kbSearchTool: Tool = {
  spec: {
    name: "kb_search",
    description:
      "在知识库中搜索（中文分词全文检索 + 向量检索）。返回相关段落及出处 {collection, source, path, node_id}；需要更多上下文时用 context_read 展开 node_id。",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string", description: "要查的问题或关键词；可以包含书名、角色名、章节名" },
        limit: { type: "integer", minimum: 1, maximum: 20, description: "最多返回多少段，默认按配置" },
      },
      required: ["query"],
      additionalProperties: false,
    },
  },
  requiresAdmin: false,
  scope: "none",
  async run(args, ctx, services) {
    const query = arg(args, "query");
    if (typeof query !== "string" || query.trim() === "") return toolError("query 必须是非空字符串");
    const kb = services.knowledge;
    if (!kb) return toolError("知识库未启用");
    const collections = await readableCollections(ctx.settings.knowledge, ctx.chat.key, () =>
      kb.listCollections(),
    );
    if (collections.length === 0) return toolOk("当前聊天没有可读的知识库。");
    const profile = ctx.settings.knowledge.search;
    const limit = arg(args, "limit");
    const options = profileOptions({
      ...profile,
      limit:
        typeof limit === "number" && Number.isFinite(limit)
          ? Math.max(1, Math.min(20, Math.trunc(limit)))
          : profile.limit,
    });
    const result = await searchKnowledge(kb.retrieval(ctx.settings.knowledge), {
      // A follow-up ("那它呢") is rewritten into a standalone query, or searched after the
      // chat's previous user turns.
      query: (await turnSearchQuery(ctx, services, query)).query,
      collections,
      options,
    });
    // Below the relevance floor nothing comes back: say so plainly, so the model answers "the
    // documents do not cover this" instead of citing the least-bad passage.
    // A collection is shared on purpose: nothing in it is anyone's marked words.
    return {
      ...toolOk(
        result.items.length === 0
          ? `知识库（${collections.join("、")}）中没有回答这个问题的内容；不要引用知识库作答，可以如实说明文档里没有。`
          : formatItems(result.items),
      ),
      marked: false,
    };
  },
};

const MODES: readonly ReadMode[] = ["subtree", "children", "parents"];

export const contextReadTool: Tool = {
  spec: {
    name: "context_read",
    description:
      "按 node_id 展开知识库节点：subtree 读取整个子树原文，children 列出直接子节点，parents 列出所在文档与章节路径。",
    parameters: {
      type: "object",
      properties: {
        node_id: { type: "string", description: "kb_search 结果里的 node_id" },
        mode: { type: "string", enum: [...MODES], description: "默认 subtree" },
      },
      required: ["node_id"],
      additionalProperties: false,
    },
  },
  requiresAdmin: false,
  scope: "none",
  async run(args, ctx, services) {
    const nodeId = arg(args, "node_id");
    const rawMode = arg(args, "mode") ?? "subtree";
    if (typeof nodeId !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(nodeId)) return toolError("node_id 无效");
    if (typeof rawMode !== "string" || !(MODES as readonly string[]).includes(rawMode))
      return toolError("mode 必须是 subtree、children 或 parents");
    const kb = services.knowledge;
    if (!kb) return toolError("知识库未启用");
    const collections = await readableCollections(ctx.settings.knowledge, ctx.chat.key, () =>
      kb.listCollections(),
    );
    const read = await readContext(kb.retrieval(ctx.settings.knowledge).store, {
      nodeId,
      mode: rawMode as ReadMode,
      collections,
    });
    if (!read) return toolError("没有这个节点，或当前聊天不能读取它。");
    const lines = [
      `${read.node.title ?? ""}（${read.node.nodeType}，${formatCitation({ collection: read.node.collection, source: read.node.sourceId, path: read.node.path, node_id: read.node.nodeId })}）`,
      ...read.related.map((n) =>
        rawMode === "subtree" && n.nodeType === "passage"
          ? n.rawText
          : `- ${n.nodeType} ${n.title ?? ""} #${n.nodeId}`,
      ),
    ];
    const text = lines.join("\n");
    return {
      ...toolOk(text.length > 12_000 ? `${text.slice(0, 12_000)}…（已截断，请用 children 逐层展开）` : text),
      marked: false,
    };
  },
};
