/**
 * The candidates stage (docs/retrieval.md#pipeline): what the indexes are asked for. A filter
 * whose whole text fits `candidates.readWholeTokens` is read whole instead of searched. Else
 * the keyword index (FTS5 bm25) searches what is asked about in a window of
 * `candidates.keywordWindow`; above `candidates.twoStageAbove` units it first picks
 * `candidates.parentWindow` parents and searches inside them too; the vector leg embeds the
 * question behind its prefix and asks for `candidates.vector.window` nearest nodes. The term
 * counts that fielded scoring and the relevance floor weigh go out with the keyword search.
 * Vectors are optional: without them the pipeline runs on FTS alone
 * (docs/invariants.md#fts-only-still-works).
 */
import type { ContextNode } from "../context-node";
import type { Candidate, ContextStore, Family, KeywordIndex, StoreFilter, TermFrequencies } from "../ports";
import type { RetrievalOptions } from "../retrieval-options";
import { type VectorSearchDeps, vectorLeg } from "../vector-search";
import type { CandidateLegs } from "./fuse";
import { countedTokens, type ReadQuery } from "./read-query";
import { loadCandidates } from "./recheck";

export type CandidateDeps = VectorSearchDeps & {
  readonly keywords: KeywordIndex;
  readonly store: ContextStore;
};

export type Found =
  /** The filter's whole text fits the budget: its nodes in reading order. */
  | { readonly kind: "whole"; readonly nodes: readonly ContextNode[] }
  /** Nothing to search for: no searchable token and no embedder. */
  | { readonly kind: "nothing" }
  | {
      readonly kind: "searched";
      readonly legs: CandidateLegs;
      readonly twoStage: boolean;
      /** Parents the keyword search brought for parent expansion, by id. */
      readonly families: ReadonlyMap<string, Family> | undefined;
      /** Document frequencies of the query's content words, when they were asked for. */
      readonly frequencies: TermFrequencies | undefined;
    };

const PARENT_TYPES = ["document", "section", "episode"] as const;

/** The `above` that no collection's size exceeds: the combined statement stays flat. */
const NEVER_TWO_STAGE = Number.MAX_SAFE_INTEGER;

type KeywordHits = { hits: Candidate[]; inside: Candidate[] | null; families?: ReadonlyMap<string, Family> };

export async function gatherCandidates(
  deps: CandidateDeps,
  filter: StoreFilter,
  query: ReadQuery,
  options: RetrievalOptions,
): Promise<Found> {
  const { candidates } = options;
  const sizing =
    candidates.readWholeTokens > 0 || candidates.twoStageAbove > 0
      ? deps.store.size(filter)
      : Promise.resolve(null);
  const counted = countedTokens(query);
  const counting = deps.keywords.frequencies !== undefined && counted.length > 0;
  // The keyword search and the frequencies go out with the size, not after it: one round trip
  // of waiting instead of two. A set read whole drops them unused; both are D1 reads of a small
  // set. The vector search waits for the size: it may cost an embedding call.
  const searching =
    query.tokens.size === 0 && !deps.embedder
      ? null
      : Promise.all([
          keywordSearch(deps, filter, query.asked, options),
          counting ? deps.keywords.frequencies?.({ ...filter, tokens: counted }) : Promise.resolve(undefined),
        ]);
  // Read whole, that search's outcome is never awaited: it must not surface as unhandled.
  searching?.catch(() => undefined);
  const size = await sizing;
  if (size && size.count > 0 && size.tokens <= candidates.readWholeTokens) {
    return { kind: "whole", nodes: await deps.store.readAll(filter, Math.max(options.limit, 500)) };
  }
  if (searching === null) return { kind: "nothing" };
  const twoStage = size !== null && candidates.twoStageAbove > 0 && size.count > candidates.twoStageAbove;
  const [[{ hits: keyword, families }, frequencies], inside, vector] = await Promise.all([
    searching,
    // Parents, then inside them: from the index's combined statement, or searched apart.
    twoStage
      ? searching.then(([found]) => found.inside ?? searchInsideParents(deps, filter, query.asked, options))
      : Promise.resolve([]),
    vectorLeg(deps, filter, query.text, candidates.vector, options.fuse.weights.vector),
  ]);
  return { kind: "searched", legs: { keyword, inside, vector }, twoStage, families, frequencies };
}

/**
 * The keyword hits, with two-stage search's second list when the index ranks both in one go
 * (`inside` null: flat, or left to searchInsideParents). Which of the two the search is, the
 * pipeline decides from the store's size; the index's own count only sizes its window.
 */
async function keywordSearch(
  deps: CandidateDeps,
  filter: StoreFilter,
  text: string,
  options: RetrievalOptions,
): Promise<KeywordHits> {
  const { candidates, expand } = options;
  const q = { ...filter, text, limit: candidates.keywordWindow };
  // Parent expansion reads the parents of the hits that can be returned: asked for with the
  // search, they come in its round trip. Families too long to merge need not be sent.
  const families =
    expand.parentTokens > 0 ? { of: options.limit * 3, maxTokens: expand.parentTokens } : undefined;
  // With two-stage off the index's combined statement still serves the flat search, so that
  // the families travel with the hits: a size past any collection's keeps its window flat.
  const both = deps.keywords.searchTwoStage
    ? await deps.keywords.searchTwoStage({
        ...q,
        parentTypes: PARENT_TYPES,
        parents: candidates.parentWindow,
        above: candidates.twoStageAbove > 0 ? candidates.twoStageAbove : NEVER_TWO_STAGE,
        ...(families ? { families } : {}),
      })
    : null;
  return both ?? { hits: await deps.keywords.search(q), inside: null };
}

async function searchInsideParents(
  deps: CandidateDeps,
  filter: StoreFilter,
  text: string,
  options: RetrievalOptions,
): Promise<Candidate[]> {
  const parents = await deps.keywords.search({
    ...filter,
    nodeTypes: [...PARENT_TYPES],
    text,
    limit: options.candidates.parentWindow,
  });
  if (parents.length === 0) return [];
  const nodes = await loadCandidates(deps.store, [{ name: "parents", weight: 1, items: parents }], parents);
  const rootIds = [...new Set(nodes.map((n) => n.rootId ?? n.nodeId))];
  return deps.keywords.search({ ...filter, rootIds, text, limit: options.candidates.keywordWindow });
}
