/**
 * The context-store node (docs/retrieval.md#context-store) as domain code reads and writes it: one shape for
 * knowledge (document/section/passage), conversation (episode/passage) and memory nodes.
 */
import type { ScopeType } from "./scope-key";

export const NODE_TYPES = [
  "source",
  "document",
  "section",
  "passage",
  "episode",
  "memory",
  "summary",
] as const;
export type NodeType = (typeof NODE_TYPES)[number];
export type SourceType = "document" | "conversation" | "human" | "tool";
export type NodeStatus = "active" | "archived" | "superseded";
export type Sensitivity = "public" | "private" | "secret_like";
export type EdgeType = "parent_of" | "derived_from" | "mentions" | "alias_of" | "supersedes" | "adjacent_to";

export type ContextNode = {
  readonly nodeId: string;
  readonly parentId: string | null;
  readonly rootId: string | null;
  /** Headings (or session labels) from the root down to this node. */
  readonly path: readonly string[];
  readonly position: number;
  readonly nodeType: NodeType;
  readonly sourceType: SourceType;
  readonly sourceId: string | null;
  readonly scopeType: ScopeType;
  readonly scopeId: string;
  readonly collection: string | null;
  readonly title: string | null;
  /** What is shown and cited. */
  readonly rawText: string;
  /** What is indexed: source title, heading path, aliases, local title and the text. */
  readonly retrievalText: string;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly importance: number;
  readonly sensitivity: Sensitivity;
  readonly portable: boolean;
  readonly status: NodeStatus;
  /** Hash of retrieval_text: the key of the embeddings cache. */
  readonly contentHash: string;
  readonly createdAt: number;
  readonly updatedAt: number;
};

/** A node about to be written; `retrievalTokens` is what the FTS index stores. */
export type NewNode = Omit<
  ContextNode,
  "status" | "createdAt" | "updatedAt" | "importance" | "sensitivity" | "portable"
> & {
  readonly retrievalTokens: string;
  readonly provenance: Readonly<Record<string, unknown>>;
  readonly importance?: number;
  readonly sensitivity?: Sensitivity;
  readonly portable?: boolean;
  readonly status?: NodeStatus;
};

export type NewEdge = { readonly src: string; readonly dst: string; readonly type: EdgeType };
