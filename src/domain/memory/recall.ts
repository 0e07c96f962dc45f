/**
 * Memory recall for one turn: the automatic per-turn recall, `memory_search` and the context
 * preview all call this, so they see exactly the same items. Candidates come from full text
 * and, when an embedding model is read, vectors (recall-candidates.ts); hard scope then runs
 * the cascade over the turn's readable scopes, soft scope ranks every visible item of the pool.
 */
import type { MemoryItem } from "./memory";
import { cascade, recallVisible, type ScoredMemory, softRank } from "./ranking";
import { type RecallCandidateDeps, recallCandidates } from "./recall-candidates";
import { type Scope, scopeKey, scopeLabel, type TurnScopes } from "./scope";

/** The memory index, and the pipeline's vector ports when an embedding model is read. */
export type RecallDeps = RecallCandidateDeps;

/** Candidates fetched per scope for each item wanted, so importance × recency can reorder. */
export const OVERFETCH = 3;

export type RecalledMemory = {
  readonly item: MemoryItem;
  readonly score: number;
  readonly scope: string;
  readonly label: string;
  readonly citation: string;
};

export type RecallRequest = {
  readonly text: string;
  readonly scopes: TurnScopes;
  readonly soft: boolean;
  readonly limit: number;
  readonly now: number;
  readonly halfLifeDays: number;
};

export async function recallMemory(deps: RecallDeps, req: RecallRequest): Promise<RecalledMemory[]> {
  if (req.limit <= 0 || req.text.trim() === "") return [];
  const readable = req.scopes.readable;
  const perScope = req.limit * OVERFETCH;
  const { hits } = await recallCandidates(deps, {
    text: req.text,
    scopes: readable,
    soft: req.soft,
    limit: req.soft ? perScope * 2 : perScope * readable.length,
    perScope: req.soft ? perScope * 2 : perScope,
  });
  const ranked = req.soft
    ? softRank(hits, readable, req.limit, req.now, req.halfLifeDays)
    : cascade(hits, readable, req.limit, req.now, req.halfLifeDays);
  // Final check before anything reaches a prompt.
  return ranked
    .filter((r) => recallVisible(r.item, readable, req.soft))
    .map((r) => describeRecalled(r, req.scopes.session));
}

export function describeRecalled(r: ScoredMemory, session: Scope): RecalledMemory {
  const label = scopeLabel(r.item.scope, session);
  const date = new Date(r.item.updatedAt).toISOString().slice(0, 10);
  return {
    item: r.item,
    score: r.score,
    scope: scopeKey(r.item.scope),
    label,
    citation: `记忆·${label}·${date} #${r.item.nodeId}`,
  };
}
