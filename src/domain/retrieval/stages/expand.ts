/**
 * The expand stage (docs/retrieval.md#pipeline): each hit that can be returned either becomes
 * its whole parent, when that parent is short enough to read whole (parent expansion), or
 * brings the nodes right before and after it (neighbour expansion: the turns around a
 * conversation hit). Which one, the profile says (`expand.parentTokens`).
 */
import { estimateTokens } from "../../text/token-estimate";
import { citationOf } from "../citation";
import type { ContextNode } from "../context-node";
import { parentFamilies } from "../parent-families";
import type { ContextStore } from "../ports";
import type { ExpandOptions } from "../retrieval-options";
import type { RetrievedItem, ScoredHit } from "../retrieved-item";

/** The parents and families the keyword search brought with its hits, for the node types it searched. */
export type BroughtFamilies = Parameters<typeof parentFamilies>[3];

/** A node the filter's gate passes (read-gate.ts): what expansion may add next to a hit. */
export type Gate = (node: ContextNode) => boolean;

/**
 * The hits (best first, at most 3 × `limit` read) as items, expanded as `options` say; a parent
 * or neighbour is added only when `gate` passes it.
 */
export async function expandHits(
  store: ContextStore,
  hits: readonly ScoredHit[],
  limit: number,
  options: ExpandOptions,
  brought: BroughtFamilies,
  gate: Gate,
): Promise<RetrievedItem[]> {
  return options.parentTokens > 0
    ? mergeParents(store, hits.slice(0, limit * 3), options.parentTokens, brought, gate)
    : expandNeighbours(store, hits.slice(0, limit), options, gate);
}

const hitItem = (h: ScoredHit): RetrievedItem => ({
  node: h.node,
  text: h.node.rawText,
  score: h.score,
  via: "hit",
  coverage: h.coverage,
  citation: citationOf(h.node),
});

/**
 * Parent expansion: hits under a short parent become that parent, its passages joined in
 * order (later hits under the same parent fold into it); other hits stay as they are.
 */
async function mergeParents(
  store: ContextStore,
  head: readonly ScoredHit[],
  parentTokens: number,
  brought: BroughtFamilies,
  gate: Gate,
): Promise<RetrievedItem[]> {
  const parentIds = [...new Set(head.map((h) => h.node.parentId).filter((p): p is string => p !== null))];
  const { parents, families } = await parentFamilies(
    store,
    parentIds,
    [...new Set(head.map((h) => h.node.nodeType))],
    brought,
  );
  const out: RetrievedItem[] = [];
  const merged = new Set<string>();
  for (const h of head) {
    const parentId = h.node.parentId;
    if (parentId && merged.has(parentId)) continue;
    const family = parentId ? families.get(parentId) : undefined;
    const parent = parentId ? parents.get(parentId) : undefined;
    // The merged text is what is packed, so it is what must fit; a text not sent was known not to.
    const tokens = typeof family?.text === "string" ? estimateTokens(family.text) : Number.POSITIVE_INFINITY;
    const sameScope = parent?.scopeType === h.node.scopeType && parent?.scopeId === h.node.scopeId;
    if (
      family &&
      family.text !== null &&
      parent &&
      gate(parent) &&
      sameScope &&
      family.count > 1 &&
      tokens <= parentTokens
    ) {
      merged.add(parent.nodeId);
      out.push({
        node: parent,
        text: family.text,
        score: h.score,
        via: "parent",
        coverage: h.coverage,
        citation: citationOf(parent),
      });
    } else out.push(hitItem(h));
  }
  return out;
}

/**
 * Neighbour expansion: the first `options.hits` hits each bring their siblings within
 * `options.neighbours` positions (nearest first), placed right after their hit or, with
 * `options.after`, once that many direct hits are placed.
 */
async function expandNeighbours(
  store: ContextStore,
  head: readonly ScoredHit[],
  options: ExpandOptions,
  gate: Gate,
): Promise<RetrievedItem[]> {
  if (options.neighbours <= 0 || options.hits <= 0) return head.map(hitItem);
  const found = await store.neighbours(
    head.slice(0, options.hits).map((h) => h.node.nodeId),
    options.neighbours,
  );
  const byParent = new Map<string, ContextNode[]>();
  for (const n of found.filter(gate)) {
    const key = n.parentId ?? "";
    byParent.set(key, [...(byParent.get(key) ?? []), n]);
  }
  const taken = new Set<string>();
  const hitIds = new Set(head.map((h) => h.node.nodeId));
  const direct: RetrievedItem[] = [];
  // Neighbours of hit i, kept apart so they can follow their hit or wait until `after` hits.
  const expansions: RetrievedItem[][] = [];
  head.forEach((h, i) => {
    if (taken.has(h.node.nodeId)) return;
    direct.push(hitItem(h));
    taken.add(h.node.nodeId);
    const siblings =
      i < options.hits
        ? (byParent.get(h.node.parentId ?? "") ?? []).filter(
            (n) =>
              Math.abs(n.position - h.node.position) <= options.neighbours &&
              !taken.has(n.nodeId) &&
              !hitIds.has(n.nodeId),
          )
        : [];
    for (const n of siblings) taken.add(n.nodeId);
    expansions.push(nearestFirst(siblings, h.node.position).map((n) => neighbourItem(n, h.score)));
  });
  return placed(direct, expansions, options.after);
}

const nearestFirst = (nodes: readonly ContextNode[], at: number): ContextNode[] =>
  [...nodes].sort((a, b) => Math.abs(a.position - at) - Math.abs(b.position - at) || a.position - b.position);

const neighbourItem = (n: ContextNode, score: number): RetrievedItem => ({
  node: n,
  text: n.rawText,
  score,
  via: "neighbour",
  coverage: 0,
  citation: citationOf(n),
});

/** Direct hits in order, each hit's neighbours after it once `after` direct hits are placed. */
function placed(
  direct: readonly RetrievedItem[],
  expansions: readonly RetrievedItem[][],
  after: number,
): RetrievedItem[] {
  const out: RetrievedItem[] = [];
  const pending: RetrievedItem[] = [];
  direct.forEach((d, i) => {
    out.push(d);
    pending.push(...(expansions[i] ?? []));
    if (i + 1 >= after) out.push(...pending.splice(0));
  });
  out.push(...pending);
  return out;
}
