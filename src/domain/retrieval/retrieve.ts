/**
 * The retrieval pipeline (docs/retrieval.md#pipeline), shared by kb_search, automatic recall and
 * history search; memory recall shares its vector leg and fusion. Each stage is a module of
 * `stages/` reading its own group of `RetrievalOptions` (retrieval-options.ts):
 *
 *   candidates (a small set read whole, or FTS5 bm25, two-stage parents and the vector leg)
 *   → fuse (RRF, k = 60, with the hint list) → recheck (every candidate against the store)
 *   → field scores (the fielded ranking in the hint list's place, where documents have
 *   headings) → coverage and the relevance floor → rerank (memory scoring, reranker) and
 *   diversify → expand (parents, neighbours) → pack (token budget, stable citations).
 *
 * Vector search is optional: with no embedder or index, or when either fails, the pipeline
 * runs on FTS alone (docs/invariants.md#fts-only-still-works).
 */
import type { ContextNode } from "./context-node";
import type { Candidate, Reranker, StoreFilter } from "./ports";
import { filterGate } from "./read-gate";
import type { RetrievalOptions } from "./retrieval-options";
import type { RankedNode, RetrievalResult } from "./retrieved-item";
import { type CandidateDeps, gatherCandidates } from "./stages/candidates";
import { coverageChecked, coverageMeter } from "./stages/coverage";
import { expandHits } from "./stages/expand";
import { fieldEvidence, fieldRanking } from "./stages/field-scores";
import { candidateLists, reciprocalRankFusion, withBoosts } from "./stages/fuse";
import { hintBoosts } from "./stages/hints";
import { pack, packWhole } from "./stages/pack";
import { readQuery, weightedTerms } from "./stages/read-query";
import { loadCandidates, recheck } from "./stages/recheck";
import { rerankHits } from "./stages/rerank";

export type RetrievalDeps = CandidateDeps & { readonly reranker?: Reranker | null };

export type RetrievalRequest = {
  readonly query: string;
  readonly filter: StoreFilter;
  readonly options: RetrievalOptions;
};

const EMPTY: RetrievalResult = { items: [], strategy: "empty", tokens: 0, dropped: 0 };

export async function retrieve(deps: RetrievalDeps, req: RetrievalRequest): Promise<RetrievalResult> {
  const { filter, options } = req;
  // Scopes and collections come from the turn and settings, never from the model.
  if (filter.scopes.length === 0 || filter.nodeTypes.length === 0 || options.limit <= 0) return EMPTY;
  const query = readQuery(req.query, options);
  const found = await gatherCandidates(deps, filter, query, options);
  if (found.kind === "nothing") return EMPTY;
  if (found.kind === "whole") {
    const whole = packWhole(found.nodes, options.limit, options.pack);
    return { items: whole.items, strategy: "whole", tokens: whole.tokens, dropped: 0 };
  }

  const lists = candidateLists(found.legs, options.fuse, deps.vectorWeight);
  const firstPass = reciprocalRankFusion(lists, options.fuse.rrfK);
  // The store is the authority on scope, level and status.
  const visible = recheck(await loadCandidates(deps.store, lists, firstPass), filter);
  const dropped = new Set(firstPass.map((c) => c.nodeId)).size - visible.size;

  const evidence = fieldEvidence(query, weightedTerms(query, found.frequencies), firstPass, visible, options);
  const boosts = evidence.fielded
    ? new Map<string, number>()
    : await hintBoosts(deps.keywords, filter, query.text, firstPass, visible, options.fuse);
  const ranking =
    fieldRanking(lists, query, evidence, visible, options.fields, options.fuse.rrfK) ?? firstPass;
  const fused = withBoosts(ranking, boosts);

  const coverage = coverageMeter(query.tokens, evidence);
  const checked = coverageChecked(rankedNodes(fused, visible), coverage, evidence, options.coverage);
  const hits = (
    await rerankHits(deps.reranker, query.text, checked, options.limit, options.rerank, options.fuse.rrfK)
  ).map((h) => ({ ...h, coverage: coverage(h.node) }));

  const brought = found.families ? { families: found.families, nodeTypes: filter.nodeTypes } : null;
  // Expansion adds only parents and neighbours the read gate passes (read-gate.ts).
  const gate = filterGate(filter);
  const items = await expandHits(deps.store, hits, options.limit, options.expand, brought, gate);
  const packed = pack(items, options.limit, options.pack);
  return {
    items: packed.items,
    strategy: found.twoStage ? "two-stage" : "flat",
    tokens: packed.tokens,
    dropped,
  };
}

/** The fused candidates the recheck kept, with their rows, in fused order. */
const rankedNodes = (fused: readonly Candidate[], visible: ReadonlyMap<string, ContextNode>): RankedNode[] =>
  fused.flatMap((c) => {
    const node = visible.get(c.nodeId);
    return node ? [{ node, score: c.score }] : [];
  });
