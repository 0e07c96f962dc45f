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

import { queryTokens } from "../text/search-tokens";
import type { ContextNode } from "./context-node";
import { type RankedList, reciprocalRankFusion } from "./fuse";
import type { Candidate, ContextStore, Family, KeywordIndex, Reranker, StoreFilter } from "./ports";
import { QUESTION_WORDS } from "./question-words";
import { filterGate } from "./read-gate";
import type { RetrievalOptions } from "./retrieval-options";
import type { RankedNode, RetrievalResult } from "./retrieved-item";
import { coverageChecked, coverageMeter } from "./stages/coverage";
import { expandHits } from "./stages/expand";
import { fieldEvidence, fieldRanking } from "./stages/field-scores";
import { pack, packWhole } from "./stages/pack";
import { countedTokens, queryTurns, readQuery, weightedTerms } from "./stages/read-query";
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
  const { asked, turns } = query;
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

  const lists: RankedList[] = [
    { name: "keyword", weight: options.fuse.weights.keyword, items: keyword },
    { name: "inside", weight: options.fuse.weights.inside, items: inside },
    { name: "vector", weight: vectorWeight(deps, options), items: vector },
  ];
  const firstPass = reciprocalRankFusion(lists, options.fuse.rrfK);
  const loaded = await loadCandidates(deps.store, lists, firstPass);
  const gate = filterGate(filter);
  const visible = recheck(loaded, filter); // 6. the store is the authority on scope, level and status
  const dropped = new Set(firstPass.map((c) => c.nodeId)).size - visible.size;
  const evidence = fieldEvidence(query, termWeights, firstPass, visible, options);
  const { fielded, fields, names } = evidence;

  // 7. hints: hits whose source title or heading the query names rank up, each by how strongly
  // it is named — the share of the asking turn the name covers, or how rare (IDF) the name is
  // in the readable scopes — so a short generic heading that merely occurs in a long question
  // barely moves, while the title a question asks about still ranks first.
  const hintTurns = fielded ? [] : queryTurns(req.query).map(hintTurn);
  const named = fielded
    ? []
    : firstPass.flatMap((c) => {
        const node = visible.get(c.nodeId);
        const perTurn = node ? hintTurns.map((t) => namedInTurn(t, node)) : [];
        return perTurn.some((n) => n.names.length > 0) ? [{ c, perTurn }] : [];
      });
  const specificity =
    options.fuse.hints.sharpness > 0
      ? await nameSpecificity(
          deps,
          filter,
          named.flatMap((x) => x.perTurn.flatMap((n) => n.names)),
        )
      : () => 1;
  // Hinted hits form one more RRF list (ranked in fused order), each entry weighted by its
  // strength: at strength 1 a named title outranks every unnamed hit, as a plain hint list would.
  const boost = new Map(
    named.map((x, i) => [
      x.c.nodeId,
      (options.fuse.hints.weight * hintStrength(x.perTurn, specificity, options.fuse.hints.sharpness)) /
        (options.fuse.rrfK + i + 1),
    ]),
  );
  const fused = (
    fieldRanking(lists, query, evidence, visible, options.fields, options.fuse.rrfK) ?? firstPass
  )
    .map((c) => ({ ...c, score: c.score + (boost.get(c.nodeId) ?? 0) }))
    .sort((a, b) => b.score - a.score || (a.nodeId < b.nodeId ? -1 : 1));

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

const vectorWeight = (deps: RetrievalDeps, options: RetrievalOptions) =>
  options.fuse.weights.vector * (deps.vectorWeight ?? 1);

const norm = (s: string) => s.normalize("NFKC").toLowerCase().replace(/\s+/g, "");

const HINT_NOISE = /[\p{P}\p{S}\s]/gu;

/** Specificity of each name in [0, 1]: the IDF of its rarest token over the largest possible. */
async function nameSpecificity(
  deps: RetrievalDeps,
  filter: StoreFilter,
  names: readonly string[],
): Promise<(name: string) => number> {
  const unique = [...new Set(names)];
  const tokens = [...new Set(unique.flatMap((name) => queryTokens(name, 8)))];
  if (!deps.keywords.frequencies || tokens.length === 0) return () => 1; // unknown: a plain hint
  const f = await deps.keywords.frequencies({ ...filter, tokens });
  const idf = (df: number) => Math.log(1 + (f.rows - df + 0.5) / (df + 0.5));
  const top = idf(0);
  return (name) => {
    // Tokens the index did not count (beyond its batch) say nothing about the name.
    const dfs = queryTokens(name, 8).flatMap((t) => {
      const df = f.df.get(t);
      return df === undefined ? [] : [Math.min(df, f.rows)];
    });
    return dfs.length > 0 ? idf(Math.min(...dfs)) / top : 0;
  };
}

/** Weight of a turn one step further back than the next (the latest turn weighs 1). */
const EARLIER_TURN_WEIGHT = 0.5;

/**
 * How strongly a node is named, in [0, 1]: per turn, the larger of the share of the turn its
 * names cover and their specificity, halved per turn further back (a heading named in the
 * latest turn outweighs one named earlier), raised to `sharpness`; the best turn counts.
 * Sharpness 0 gives 1 for any named node (a plain hint list).
 */
export function hintStrength(
  perTurn: readonly { share: number; names: readonly string[] }[],
  specificity: (name: string) => number,
  sharpness: number,
): number {
  let best = 0;
  perTurn.forEach((n, i) => {
    if (n.names.length === 0) return;
    const spec = Math.max(...n.names.map(specificity));
    const strength = Math.max(n.share, spec) * EARLIER_TURN_WEIGHT ** (perTurn.length - 1 - i);
    best = Math.max(best, strength ** sharpness);
  });
  return best;
}

/**
 * The node's source title and headings (≥ 2 characters, disambiguation in brackets aside) that
 * the text names, and the share of the text's characters (punctuation and question words
 * aside) the longest of them covers.
 */
export function namedIn(text: string, node: ContextNode): { share: number; names: string[] } {
  return namedInTurn(hintTurn(text), node);
}

/** A turn's side of `namedIn`, worked out once per turn rather than once per candidate. */
type HintTurn = { readonly q: string; readonly contentLength: number };

function hintTurn(text: string): HintTurn {
  const q = norm(text);
  let content = q.replace(HINT_NOISE, "");
  for (const w of QUESTION_WORDS) content = content.replaceAll(w, "");
  return { q, contentLength: content.length };
}

function namedInTurn({ q, contentLength }: HintTurn, node: ContextNode): { share: number; names: string[] } {
  const names: string[] = [];
  let longest = 0;
  for (const name of [node.title, ...node.path]) {
    if (typeof name !== "string") continue;
    const n = norm(name.replace(/[（(][^）)]*[）)]/g, ""));
    if (n.length < 2 || !q.includes(n)) continue;
    names.push(n);
    longest = Math.max(longest, n.replace(HINT_NOISE, "").length);
  }
  return { share: longest === 0 ? 0 : Math.min(1, longest / Math.max(1, contentLength)), names };
}

/** True when the query names the node's source title or one of its headings (≥ 2 characters). */
export function namesSource(query: string, node: ContextNode): boolean {
  return namedIn(query, node).names.length > 0;
}
