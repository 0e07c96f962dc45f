/**
 * The recheck stage (docs/retrieval.md#pipeline): every fused candidate's row comes from the
 * store — carried by the index that read it in its own statement, or loaded — and is kept only
 * when the filter's read gate passes it (active, of a readable scope, at a level readable there:
 * read-gate.ts), of the asked node types and collections. Stale or foreign vector hits end
 * here: the store is the authority on scope, level and status.
 */
import type { ContextNode } from "../context-node";
import type { Candidate, ContextStore, StoreFilter } from "../ports";
import { filterGate } from "../read-gate";
import type { RankedList } from "./fuse";

/**
 * The rows of the fused candidates: those an index read with its hits, the rest loaded from the
 * store in one read (none when every list carried its rows: one round trip saved). Either way
 * the rows come from the store's table and pass through `recheck` before use.
 */
export async function loadCandidates(
  store: ContextStore,
  lists: readonly RankedList[],
  fused: readonly Candidate[],
): Promise<ContextNode[]> {
  const carried = new Map<string, ContextNode>();
  for (const list of lists) for (const c of list.items) if (c.node) carried.set(c.nodeId, c.node);
  const missing = [...new Set(fused.map((c) => c.nodeId))].filter((id) => !carried.has(id));
  const loaded = missing.length > 0 ? await store.load(missing) : [];
  return [...fused.flatMap((c) => carried.get(c.nodeId) ?? []), ...loaded];
}

/** Keeps active nodes the filter's gate passes (scope and level), of its types and collections. */
export function recheck(nodes: readonly ContextNode[], filter: StoreFilter): Map<string, ContextNode> {
  const visible = filterGate(filter);
  const types = new Set<string>(filter.nodeTypes);
  const collections = filter.collections ? new Set(filter.collections) : null;
  const out = new Map<string, ContextNode>();
  for (const n of nodes) {
    if (!visible(n)) continue;
    if (!types.has(n.nodeType)) continue;
    if (collections && (n.collection === null || !collections.has(n.collection))) continue;
    out.set(n.nodeId, n);
  }
  return out;
}
