/**
 * The kNN step of the retrieval pipeline (docs/retrieval.md#pipeline), shared by `retrieve` (knowledge,
 * history) and memory recall: embed the query, ask the vector index for the filter's nearest
 * nodes. Vectors are optional (docs/invariants.md#fts-only-still-works): with no embedder or index, a fusion weight of 0,
 * or when either fails, the step yields nothing and the caller runs on FTS alone. Results
 * may be stale or mislabelled; callers re-check every one against the node store.
 */
import type { Logger } from "../kernel/logger";
import type { Candidate, Embedder, IndexFilter, VectorIndex } from "./ports";
import type { CandidateOptions } from "./retrieval-options";

export type VectorSearchDeps = {
  readonly vectors?: VectorIndex | null;
  readonly embedder?: Embedder | null;
  /**
   * How much the embedder's ranking counts in fusion (a property of the model: measured 0 for
   * the local hashed embedder, 1 for bge-m3, docs/decisions/0002-local-embedder-fused-at-weight-zero.md);
   * 0 skips vector search. Default 1.
   */
  readonly vectorWeight?: number;
  readonly logger?: Logger;
};

/** True when vector search can run at all: an embedder, an index and a positive weight. */
export const vectorsEnabled = (deps: VectorSearchDeps | null | undefined, weight = 1): boolean =>
  !!deps?.embedder && !!deps.vectors && weight * (deps.vectorWeight ?? 1) > 0;

/**
 * Nearest nodes of `filter` to `text`, best first, at most `limit` (the index caps it too).
 * Never throws: a failed embedding or query is logged and yields [].
 */
export async function vectorSearch(
  deps: VectorSearchDeps,
  q: IndexFilter & { readonly text: string; readonly limit: number },
): Promise<Candidate[]> {
  const { embedder, vectors } = deps;
  if (!embedder || !vectors || q.limit <= 0) return [];
  try {
    const embedded = await embedder.embed([q.text], "query");
    const embedding = embedded.ok ? embedded.value[0] : undefined;
    if (!embedding) {
      deps.logger?.warn("query embedding failed; FTS only", {
        kind: embedded.ok ? "empty" : embedded.error.kind,
      });
      return [];
    }
    const { text: _text, ...filter } = q;
    return await vectors.query({ ...filter, embedding });
  } catch (e) {
    deps.logger?.warn("vector search failed; FTS only", { error: String(e) });
    return [];
  }
}

/**
 * The vector leg of a search: the nearest nodes of `filter` to the query, at most the leg's
 * window — or none when the model, the index or the leg's fusion
 * weight (`weight`, times the read model's own) leaves vectors out.
 */
export function vectorLeg(
  deps: VectorSearchDeps | null | undefined,
  filter: IndexFilter,
  text: string,
  leg: CandidateOptions["vector"],
  weight: number,
): Promise<Candidate[]> {
  return deps && vectorsEnabled(deps, weight)
    ? vectorSearch(deps, { ...filter, text, limit: leg.window })
    : Promise.resolve([]);
}
