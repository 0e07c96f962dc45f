/**
 * The retrieval pipeline (docs/retrieval.md#pipeline), shared by kb_search, automatic recall and — through
 * the same ports — memory and history search:
 *
 *   filter (scopes/collections from the turn) → small sets read whole → parent-level
 *   candidates for large sets (two-stage) → FTS5 bm25 + vector kNN → RRF (k = 60) with
 *   title/path hints → re-check every candidate against the store → optional rerank →
 *   scoring (importance × recency for memory) → diversity and dedupe → neighbour expansion
 *   → packing under a token budget → stable citations.
 *
 * Vector search is optional: with no embedder or index, or when either fails, the pipeline
 * runs on FTS alone (docs/invariants.md#fts-only-still-works).
 */

import type { Candidate, ContextStore, Family, KeywordIndex, Reranker, StoreFilter } from "./ports";
import { filterGate } from "./read-gate";
import type { RetrievalOptions } from "./retrieval-options";
import type { RankedNode, RetrievalResult } from "./retrieved-item";
import { coverageChecked, coverageMeter } from "./stages/coverage";
import { expandHits } from "./stages/expand";
import { fieldEvidence, fieldRanking } from "./stages/field-scores";
import { candidateLists, reciprocalRankFusion, withBoosts } from "./stages/fuse";
import { hintBoosts } from "./stages/hints";
import { pack, packWhole } from "./stages/pack";
import { countedTokens, readQuery, weightedTerms } from "./stages/read-query";
import { loadCandidates, recheck } from "./stages/recheck";
import { rerankHits } from "./stages/rerank";
import { type VectorSearchDeps, vectorSearch, vectorsEnabled } from "./vector-search";

export type RetrievalDeps = VectorSearchDeps & {
  readonly keywords: KeywordIndex;
  readonly store: ContextStore;
  readonly reranker?: Reranker | null;
};

export type RetrievalRequest = {
  readonly query: string;
  readonly filter: StoreFilter;
  readonly options: RetrievalOptions;
};

/** The `above` that no collection's size exceeds: the combined statement stays flat. */
const NEVER_TWO_STAGE = Number.MAX_SAFE_INTEGER;

const EMPTY: RetrievalResult = { items: [], strategy: "empty", tokens: 0, dropped: 0 };

export async function retrieve(deps: RetrievalDeps, req: RetrievalRequest): Promise<RetrievalResult> {
  const { filter, options } = req;
  if (filter.scopes.length === 0 || filter.nodeTypes.length === 0 || options.limit <= 0) return EMPTY; // 1. filter

  const sizing =
    options.candidates.readWholeTokens > 0 || options.candidates.twoStageAbove > 0
      ? deps.store.size(filter)
      : Promise.resolve(null);
  const query = readQuery(req.query, options);
  const { asked } = query;
  const counted = countedTokens(query);
  const floorOn = deps.keywords.frequencies !== undefined && counted.length > 0;
  // The keyword search and the frequencies go out with the size, not after it: one round trip
  // of waiting instead of two. A set read whole (step 2) drops them unused; both are D1 reads
  // of a small set. The vector search waits for the size: it may cost an embedding call.
  const searching =
    query.tokens.size === 0 && !deps.embedder
      ? null
      : Promise.all([
          keywordSearch(deps, { ...req, query: asked }), // 3. FTS5 bm25 (and 4., where the index ranks both at once)
          floorOn ? deps.keywords.frequencies?.({ ...filter, tokens: counted }) : Promise.resolve(undefined),
        ]);
  // Read whole, that search's outcome is never awaited: it must not surface as unhandled.
  searching?.catch(() => undefined);
  const size = await sizing;
  if (size && size.count > 0 && size.tokens <= options.candidates.readWholeTokens) {
    return readWhole(deps, filter, options); // 2. small sets are read whole
  }
  if (searching === null) return EMPTY;
  const twoStage =
    size !== null && options.candidates.twoStageAbove > 0 && size.count > options.candidates.twoStageAbove;

  const [[{ hits: keyword, families }, frequencies], inside, vector] = await Promise.all([
    searching,
    // 4. parents, then inside them
    twoStage
      ? searching.then(([found]) => found.inside ?? searchInsideParents(deps, { ...req, query: asked }))
      : Promise.resolve([]),
    vectorsEnabled(deps, options.fuse.weights.vector)
      ? vectorSearch(deps, {
          ...filter,
          text: `${options.candidates.vector.queryPrefix}${req.query}`,
          limit: options.candidates.vector.window,
        })
      : Promise.resolve([]), // 5. kNN
  ]);
  const termWeights = weightedTerms(query, frequencies);

  const lists = candidateLists({ keyword, inside, vector }, options.fuse, deps.vectorWeight);
  const firstPass = reciprocalRankFusion(lists, options.fuse.rrfK);
  const loaded = await loadCandidates(deps.store, lists, firstPass);
  const gate = filterGate(filter);
  const visible = recheck(loaded, filter); // 6. the store is the authority on scope, level and status
  const dropped = new Set(firstPass.map((c) => c.nodeId)).size - visible.size;
  const evidence = fieldEvidence(query, termWeights, firstPass, visible, options);
  const { fielded, fields, names } = evidence;

  const boosts = fielded
    ? new Map<string, number>()
    : await hintBoosts(deps.keywords, filter, req.query, firstPass, visible, options.fuse);
  const ranking =
    fieldRanking(lists, query, evidence, visible, options.fields, options.fuse.rrfK) ?? firstPass;
  const fused = withBoosts(ranking, boosts);

  const coverage = coverageMeter(
    query.tokens,
    fielded && termWeights && fields ? { terms: termWeights, fields } : null,
  );
  const ranked: RankedNode[] = fused.flatMap((c) => {
    const node = visible.get(c.nodeId);
    return node ? [{ node, score: c.score }] : [];
  });
  const scored = coverageChecked(ranked, coverage, { names, fields }, options.coverage);

  // 8. memory scoring, rerank, diversity and dedupe; expansion reads at most 3 × limit hits.
  const hits = (
    await rerankHits(deps.reranker, req.query, scored, options.limit, options.rerank, options.fuse.rrfK)
  ).map((h) => ({ ...h, coverage: coverage(h.node) }));
  const brought = families ? { families, nodeTypes: filter.nodeTypes } : null;
  const items = await expandHits(deps.store, hits, options.limit, options.expand, brought, gate); // 10.
  const packed = pack(items, options.limit, options.pack); // 11. budget, citations
  return { items: packed.items, strategy: twoStage ? "two-stage" : "flat", tokens: packed.tokens, dropped };
}

async function readWhole(
  deps: RetrievalDeps,
  filter: StoreFilter,
  options: RetrievalOptions,
): Promise<RetrievalResult> {
  const nodes = await deps.store.readAll(filter, Math.max(options.limit, 500));
  const packed = packWhole(nodes, options.limit, options.pack);
  return { items: packed.items, strategy: "whole", tokens: packed.tokens, dropped: 0 };
}

const PARENT_TYPES = ["document", "section", "episode"] as const;

/**
 * The keyword hits, with two-stage search's second list when the index ranks both in one go
 * (`inside` null: flat, or left to searchInsideParents). Which of the two the search is, the
 * pipeline decides from the store's size; the index's own count only sizes its window.
 */
async function keywordSearch(
  deps: RetrievalDeps,
  req: RetrievalRequest,
): Promise<{ hits: Candidate[]; inside: Candidate[] | null; families?: ReadonlyMap<string, Family> }> {
  const { options } = req;
  const q = { ...req.filter, text: req.query, limit: options.candidates.keywordWindow };
  // Parent expansion reads the parents of the hits that can be returned: asked for with the
  // search, they come in its round trip. Families too long to merge need not be sent.
  const families =
    options.expand.parentTokens > 0
      ? { of: options.limit * 3, maxTokens: options.expand.parentTokens }
      : undefined;
  // With two-stage off the index's combined statement still serves the flat search, so that
  // the families travel with the hits: a size past any collection's keeps its window flat.
  const both = deps.keywords.searchTwoStage
    ? await deps.keywords.searchTwoStage({
        ...q,
        parentTypes: PARENT_TYPES,
        parents: options.candidates.parentWindow,
        above: options.candidates.twoStageAbove > 0 ? options.candidates.twoStageAbove : NEVER_TWO_STAGE,
        ...(families ? { families } : {}),
      })
    : null;
  return both ?? { hits: await deps.keywords.search(q), inside: null };
}

async function searchInsideParents(deps: RetrievalDeps, req: RetrievalRequest): Promise<Candidate[]> {
  const parents = await deps.keywords.search({
    ...req.filter,
    nodeTypes: [...PARENT_TYPES],
    text: req.query,
    limit: req.options.candidates.parentWindow,
  });
  if (parents.length === 0) return [];
  const nodes = await loadCandidates(deps.store, [{ name: "parents", weight: 1, items: parents }], parents);
  const rootIds = [...new Set(nodes.map((n) => n.rootId ?? n.nodeId))];
  return deps.keywords.search({
    ...req.filter,
    rootIds,
    text: req.query,
    limit: req.options.candidates.keywordWindow,
  });
}
