/** Mapping of `nodes` rows to the domain's ContextNode. */
import type {
  ContextNode,
  NodeStatus,
  NodeType,
  Sensitivity,
  SourceType,
} from "../../domain/retrieval/context-node";
import type { ScopeType } from "../../domain/retrieval/scope-key";

export type NodeRow = {
  node_id: string;
  parent_id: string | null;
  root_id: string | null;
  path: string;
  position: number;
  node_type: string;
  source_type: string;
  source_id: string | null;
  scope_type: string;
  scope_id: string;
  collection: string | null;
  title: string | null;
  raw_text: string;
  retrieval_text: string;
  metadata: string;
  importance: number;
  sensitivity: string;
  portable: number;
  status: string;
  content_hash: string;
  created_at: number;
  updated_at: number;
};

export const NODE_FIELDS = `node_id, parent_id, root_id, path, position, node_type, source_type, source_id, scope_type,
  scope_id, collection, title, raw_text, retrieval_text, metadata, importance, sensitivity, portable, status,
  content_hash, created_at, updated_at`;

/** NODE_FIELDS with a table alias, for joins. */
export const nodeFields = (alias: string) =>
  NODE_FIELDS.split(",")
    .map((f) => `${alias}.${f.trim()}`)
    .join(", ");

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function toNode(r: NodeRow): ContextNode {
  const path = parseJson<unknown>(r.path, []);
  return {
    nodeId: r.node_id,
    parentId: r.parent_id,
    rootId: r.root_id,
    path: Array.isArray(path) ? path.map(String) : [],
    position: r.position,
    nodeType: r.node_type as NodeType,
    sourceType: r.source_type as SourceType,
    sourceId: r.source_id,
    scopeType: r.scope_type as ScopeType,
    scopeId: r.scope_id,
    collection: r.collection,
    title: r.title,
    rawText: r.raw_text,
    retrievalText: r.retrieval_text,
    metadata: parseJson<Record<string, unknown>>(r.metadata, {}),
    importance: r.importance,
    sensitivity: r.sensitivity as Sensitivity,
    portable: r.portable !== 0,
    status: r.status as NodeStatus,
    contentHash: r.content_hash,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
