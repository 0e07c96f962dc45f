/**
 * Memory recall for one turn: the automatic per-turn recall, `memory_search` and the context
 * preview all call this, so they see exactly the same items. Hard scope runs the cascade over
 * the turn's readable scopes; soft scope ranks every visible item of the pool.
 */
import type { MemoryItem } from "./memory";
import type { MemoryIndex } from "./memory-store";
import { cascade, type ScoredMemory, softRank, softVisible } from "./ranking";
import { includesScope, type Scope, scopeKey, scopeLabel, type TurnScopes } from "./scope";

/** Candidates fetched per scope for each item wanted, so importance × recency can reorder. */
const OVERFETCH = 3;

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

export async function recallMemory(index: MemoryIndex, req: RecallRequest): Promise<RecalledMemory[]> {
  if (req.limit <= 0 || req.text.trim() === "") return [];
  const readable = req.scopes.readable;
  const perScope = req.limit * OVERFETCH;
  const hits = await index.search({
    text: req.text,
    scopes: readable,
    limit: req.soft ? perScope * 2 : perScope * readable.length,
    perScope: req.soft ? perScope * 2 : perScope,
    ...(req.soft ? { soft: true } : {}),
  });
  const ranked = req.soft
    ? softRank(hits, readable, req.limit, req.now, req.halfLifeDays)
    : cascade(hits, readable, req.limit, req.now, req.halfLifeDays);
  return ranked
    .filter((r) => visible(r.item, readable, req.soft))
    .map((r) => describeRecalled(r, req.scopes.session));
}

/** Final check before anything reaches a prompt. */
export function visible(item: MemoryItem, readable: readonly Scope[], soft: boolean): boolean {
  if (item.status !== "active") return false;
  return soft ? softVisible(item, readable) : includesScope(readable, item.scope);
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
