/**
 * Ports of the retrieval pipeline (docs/retrieval.md#pipeline). They are generic over node types and
 * scopes: knowledge passages, conversation turns and memory items all go through them.
 * Every index filters by scope itself, and the pipeline re-checks every candidate against
 * the node store before use — a leak across scopes is the worst bug this code can ship.
 */
import type { Result } from "../kernel/result";
import type { ContextNode, NodeType, Sensitivity } from "./context-node";
import type { ScopeKey } from "./scope-key";

/**
 * A ranked hit of one index: best first; `score` is comparable within one list only. An index
 * that reads the node's row from the store's own table in the same statement (the D1 keyword
 * index) may hand it on as `node`, so the pipeline need not load it again; it is re-checked like
 * a loaded row. An index with its own copy of node data (vectors' metadata) must not: a copy can
 * be stale, the store is the authority.
 */
export type Candidate = { readonly nodeId: string; readonly score: number; readonly node?: ContextNode };

export type IndexFilter = {
  /** Only nodes whose `type:id` scope is one of these. Empty = nothing. */
  readonly scopes: readonly ScopeKey[];
  /**
   * The sensitivity levels readable of each scope (read-gate.ts). A scope it does not name is
   * read at `public` only: a filter that forgets its levels reads less, never more.
   */
  readonly levels?: ReadonlyMap<ScopeKey, readonly Sensitivity[]>;
  readonly nodeTypes: readonly NodeType[];
  /** Only nodes of these collections, when given. */
  readonly collections?: readonly string[];
  /** Only nodes inside these documents/episodes (root ids) — the second stage of two-stage search. */
  readonly rootIds?: readonly string[];
};

/**
 * A parent read with the search for parent expansion: its row, how many active children of the
 * searched types it has in its own scope, and their raw texts joined by newlines in order — null
 * when those are known to estimate above the asked `maxTokens` (too long to merge, so not sent).
 * Text that fits is always sent; text that does not may be sent when the index cannot tell.
 */
export type Family = { readonly parent: ContextNode; readonly count: number; readonly text: string | null };

/**
 * A search's hits and, when it was two-stage, the hits inside the best parents; `families` by
 * parent id when they were asked for (parents absent from it were not read).
 */
export type TwoStageHits = {
  readonly hits: Candidate[];
  readonly inside: Candidate[] | null;
  readonly families?: ReadonlyMap<string, Family>;
};

export interface KeywordIndex {
  /**
   * Full-text (FTS5 bm25) matches of `text`, best first, at most `limit`. Query text is
   * tokenized like indexed text and every token quoted, so FTS5 syntax in it is searched as
   * text. Returns [] — never throws — for text with nothing searchable.
   */
  search(q: IndexFilter & { readonly text: string; readonly limit: number }): Promise<Candidate[]>;
  /**
   * How many indexed rows of the filter's scopes hold each token (document frequency) and how
   * many rows those scopes hold in all; the relevance floor weighs query tokens by it. Optional:
   * an index without it leaves the floor off.
   */
  frequencies?(q: IndexFilter & { readonly tokens: readonly string[] }): Promise<TermFrequencies>;
  /**
   * The search and two-stage search's second list in one ranking (optional). When the filter
   * holds more than `above` rows, `inside` is the filter's best matches whose root is one of the
   * `parents` best-ranked rows of `parentTypes` among the same matches (at most `limit`, best
   * first); otherwise null (flat). Null in all when this index cannot answer so: the pipeline
   * then uses `search`, and searches the parents and inside them with it.
   *
   * With `families`, the parents of the first `of` rows of each list come back too, read as
   * `ContextStore.load` and `childrenOf` read them (the rows are the store's own), so parent
   * expansion need not wait for another round trip.
   */
  searchTwoStage?(
    q: IndexFilter & {
      readonly text: string;
      readonly limit: number;
      readonly parentTypes: readonly NodeType[];
      readonly parents: number;
      readonly above: number;
      readonly families?: { readonly of: number; readonly maxTokens: number };
    },
  ): Promise<TwoStageHits | null>;
}

export type TermFrequencies = { readonly rows: number; readonly df: ReadonlyMap<string, number> };

export type EmbeddingModel = {
  /** e.g. `@cf/baai/bge-m3`, `local-hash`. */
  readonly id: string;
  /** Bumped whenever vectors of the same id stop being comparable. */
  readonly version: string;
  readonly dims: number;
};

export const modelKey = (m: EmbeddingModel): string => `${m.id}@${m.version}`;

export type EmbedError = {
  readonly kind: "unavailable" | "rate-limited" | "bad-response";
  readonly message: string;
};

export interface Embedder {
  readonly model: EmbeddingModel;
  /** Most texts one call accepts (bge-m3 on Workers AI: 100). Callers batch. */
  readonly maxBatch: number;
  /** One unit-length vector per text, in order. Failures are values. */
  embed(texts: readonly string[], purpose: "query" | "document"): Promise<Result<number[][], EmbedError>>;
}

/** What an external vector index stores per node, for filtered queries. */
export type VectorMetadata = {
  readonly scope_type: string;
  readonly scope_id: string;
  readonly collection: string;
  readonly node_type: string;
  readonly sensitivity: string;
  readonly portable: boolean;
};

export type VectorEntry = {
  readonly nodeId: string;
  readonly contentHash: string;
  readonly vector: readonly number[];
  readonly metadata: VectorMetadata;
};

export interface VectorIndex {
  /** True when the index lives outside D1 and must be kept in sync (Vectorize). */
  readonly external: boolean;
  /**
   * Nearest nodes by cosine similarity, best first, filtered by scope and node type. Results
   * may be stale (eventual consistency): the pipeline re-checks each one against D1.
   */
  query(
    q: IndexFilter & { readonly embedding: readonly number[]; readonly limit: number },
  ): Promise<Candidate[]>;
  /** Inserts or replaces vectors by node id. Idempotent. */
  upsert(entries: readonly VectorEntry[]): Promise<void>;
  /** Deletes vectors by node id; unknown ids are ignored. */
  remove(nodeIds: readonly string[]): Promise<void>;
}

export interface Reranker {
  /** A relevance score per text (higher is better), in input order. */
  rerank(query: string, texts: readonly string[]): Promise<Result<number[], EmbedError>>;
}

export type StoreFilter = Omit<IndexFilter, "rootIds">;

/** Reads nodes for the pipeline: the authority on status and scope. */
export interface ContextStore {
  /** Nodes by id, any status (the caller filters); unknown ids are absent. */
  load(nodeIds: readonly string[]): Promise<ContextNode[]>;
  /** How many active nodes of these types the filter holds, and their estimated tokens. */
  size(filter: StoreFilter): Promise<{ readonly count: number; readonly tokens: number }>;
  /** Every active node of the filter in reading order (root, then position), at most `limit`. */
  readAll(filter: StoreFilter, limit: number): Promise<ContextNode[]>;
  /** Active children of these types for each parent, in order (for parent expansion). */
  childrenOf(
    parentIds: readonly string[],
    nodeTypes: readonly NodeType[],
  ): Promise<Map<string, ContextNode[]>>;
  /** Active children of a node in order. */
  children(nodeId: string, limit: number): Promise<ContextNode[]>;
  /** Active siblings right before and after each node (same parent), `radius` on each side. */
  neighbours(nodeIds: readonly string[], radius: number): Promise<ContextNode[]>;
  /** The chain of parents of a node, nearest first (any status: a parent is navigation). */
  ancestors(nodeId: string): Promise<ContextNode[]>;
}
