/**
 * `kb_manage`: an admin lists and removes knowledge-base collections and documents from a
 * chat. Privileged; the guard checks that first, and the tool checks again so that it never
 * runs unguarded. Every use is audited, refusals and mistakes included. A removal asks for
 * no confirmation, so the answer says exactly what went; a name that does not exist changes
 * nothing.
 */
import { gateFor } from "../../authorization/authorization-gate";
import type { AuditOutcome } from "../../kernel/audit";
import { formatLocalTime } from "../../kernel/local-time";
import type { KnowledgeAdmin } from "../../knowledge/knowledge-admin";
import { type Tool, type ToolResult, toolError, toolOk } from "../tool";

const ACTIONS = ["list", "documents", "delete_document", "delete_collection"] as const;
type Action = (typeof ACTIONS)[number];

/** Listings beyond this many lines end with a count of what was left out. */
const MAX_LINES = 50;

const DERIVED = "及其全文索引、向量和不再被引用的嵌入";

function text(args: unknown, name: string): string | null {
  const value = typeof args === "object" && args !== null ? (args as Record<string, unknown>)[name] : null;
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

function capped(lines: readonly string[]): string {
  if (lines.length <= MAX_LINES) return lines.join("\n");
  return [...lines.slice(0, MAX_LINES), `……还有 ${lines.length - MAX_LINES} 项未列出`].join("\n");
}

const titled = (name: string, title: string | null) => (title ? `${name}（${title}）` : name);

export const kbManageTool: Tool = {
  spec: {
    name: "kb_manage",
    description:
      "（仅管理员）管理知识库：list 列出所有集合及文档数、段落数；documents 列出一个集合的文档；delete_document 删除集合中的一篇文档（source 为导入时的文件名）；delete_collection 删除整个集合。删除立即生效、不可撤销，只在管理员明确要求时使用。",
    parameters: {
      type: "object",
      properties: {
        action: { type: "string", enum: [...ACTIONS] },
        collection: {
          type: "string",
          description: "集合名（documents、delete_document、delete_collection 必填）",
        },
        source: { type: "string", description: "文档来源，即导入时的文件名（delete_document 必填）" },
      },
      required: ["action"],
      additionalProperties: false,
    },
  },
  requiresAdmin: true,
  scope: "none",
  async run(args, ctx, services) {
    const actor = ctx.sender?.account ?? null;
    const rawAction =
      typeof args === "object" && args !== null ? (args as Record<string, unknown>).action : null;
    const action = (ACTIONS as readonly unknown[]).includes(rawAction) ? (rawAction as Action) : null;
    const collection = text(args, "collection");
    const source = text(args, "source");
    const audit = (outcome: AuditOutcome, detail: Record<string, string | number | boolean | null> = {}) =>
      services.audit.record({
        action: `kb.${action ?? "invalid"}`,
        actor,
        target: collection,
        outcome,
        detail: { via: "tool", ...(source === null ? {} : { source }), ...detail },
      });

    const authorized = gateFor(ctx.settings.identity).requireAdmin("kb_manage", actor);
    if (!authorized.ok) {
      audit("refused", { cause: authorized.error.cause });
      return toolError(`拒绝：${authorized.error.reason}`);
    }
    if (action === null) {
      audit("invalid", { field: "action" });
      return toolError("action 必须是 list、documents、delete_document 或 delete_collection");
    }
    const kb = services.knowledge?.admin(ctx.settings.knowledge);
    if (!kb) {
      audit("failed", { reason: "no knowledge base" });
      return toolError("知识库未启用");
    }
    return ACTION_RUNNERS[action](kb, {
      collection,
      source,
      audit,
      timeZone: ctx.settings.calendar.timeZone,
    });
  },
};

type Request = {
  readonly collection: string | null;
  readonly source: string | null;
  /** `calendar.timeZone`: the times listed are shown in it, with the offset. */
  readonly timeZone: string;
  readonly audit: (outcome: AuditOutcome, detail?: Record<string, string | number | boolean | null>) => void;
};

const ACTION_RUNNERS: Record<Action, (kb: KnowledgeAdmin, req: Request) => Promise<ToolResult>> = {
  async list(kb, { audit }) {
    const collections = await kb.listCollections();
    audit("ok", { collections: collections.length });
    if (collections.length === 0) return toolOk("知识库里还没有集合。");
    return toolOk(
      capped([
        `知识库共有 ${collections.length} 个集合：`,
        ...collections.map((c) => `- ${titled(c.name, c.title)}：${c.documents} 篇文档，${c.passages} 段`),
      ]),
    );
  },

  async documents(kb, { collection, audit, timeZone }) {
    if (collection === null) {
      audit("invalid", { field: "collection" });
      return toolError("documents 需要 collection（集合名）");
    }
    const info = await kb.getCollection(collection);
    if (!info) {
      audit("invalid", { reason: "unknown collection" });
      return toolError(`没有名为 ${collection} 的集合。`);
    }
    const documents = await kb.listDocuments(collection);
    audit("ok", { documents: documents.length });
    if (documents.length === 0) return toolOk(`集合 ${collection} 里还没有文档。`);
    return toolOk(
      capped([
        `集合 ${titled(collection, info.title)} 有 ${documents.length} 篇文档：`,
        ...documents.map(
          (d) =>
            `- ${titled(d.sourceId, d.title)}：${d.passages} 段，更新于 ${formatLocalTime(d.updatedAt, timeZone)}`,
        ),
      ]),
    );
  },

  async delete_document(kb, { collection, source, audit }) {
    if (collection === null || source === null) {
      audit("invalid", { field: collection === null ? "collection" : "source" });
      return toolError(
        "delete_document 需要 collection（集合名）和 source（导入时的文件名）；什么都没有删除。",
      );
    }
    if (!(await kb.getCollection(collection))) {
      audit("invalid", { reason: "unknown collection" });
      return toolError(`没有名为 ${collection} 的集合；什么都没有删除。`);
    }
    const document = await kb.findDocument(collection, source);
    const removed = document ? await kb.deleteDocument(collection, source) : null;
    if (!document || !removed) {
      audit("invalid", { reason: "unknown source" });
      return toolError(`集合 ${collection} 中没有来源为 ${source} 的文档；什么都没有删除。`);
    }
    audit("ok", { passages: document.passages, nodes: removed.nodes });
    return toolOk(
      `已从集合 ${collection} 删除文档 ${titled(source, document.title)}：${document.passages} 段（共 ${removed.nodes} 个节点）${DERIVED}。`,
    );
  },

  async delete_collection(kb, { collection, audit }) {
    if (collection === null) {
      audit("invalid", { field: "collection" });
      return toolError("delete_collection 需要 collection（集合名）；什么都没有删除。");
    }
    const info = await kb.getCollection(collection);
    const removed = info ? await kb.deleteCollection(collection) : null;
    if (!info || !removed) {
      audit("invalid", { reason: "unknown collection" });
      return toolError(`没有名为 ${collection} 的集合；什么都没有删除。`);
    }
    audit("ok", { documents: info.documents, passages: info.passages, nodes: removed.nodes });
    return toolOk(
      `已删除集合 ${titled(collection, info.title)}：${info.documents} 篇文档、${info.passages} 段（共 ${removed.nodes} 个节点）${DERIVED}。`,
    );
  },
};
