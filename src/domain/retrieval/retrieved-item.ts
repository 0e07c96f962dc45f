/** What the retrieval pipeline answers (docs/retrieval.md#pipeline): items packed under a budget. */
import type { Citation } from "./citation";
import type { ContextNode } from "./context-node";

export type RetrievedItem = {
  readonly node: ContextNode;
  /** Fused score (hits) or the score of the hit a neighbour belongs to. */
  readonly score: number;
  readonly via: "hit" | "neighbour" | "whole" | "parent";
  /** What is shown: the node's raw text, or for a merged parent its passages' raw texts in order. */
  readonly text: string;
  /** Share of query tokens present in the node's retrieval text. */
  readonly coverage: number;
  readonly citation: Citation;
};

export type RetrievalResult = {
  readonly items: readonly RetrievedItem[];
  readonly strategy: "empty" | "whole" | "flat" | "two-stage";
  readonly tokens: number;
  /** Candidates dropped by the store re-check (stale vectors, other scopes, archived). */
  readonly dropped: number;
};

/** A candidate node with its pipeline score, between fusion and expansion. */
export type RankedNode = { readonly node: ContextNode; readonly score: number };

/** A hit that may be returned: ranked, with the share of the query its text covers. */
export type ScoredHit = RankedNode & { readonly coverage: number };
