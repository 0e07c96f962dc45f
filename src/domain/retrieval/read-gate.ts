/**
 * The one read gate (docs/invariants.md#one-read-gate): which stored nodes — memory items,
 * summaries, knowledge — a reader may see. A reader holds readable scopes, each with the
 * sensitivity levels it may see of that scope; a node is visible when its scope is one of
 * them at its level. Every reader of nodes derives its filter from here: the SQL of the D1
 * adapters (`src/adapters/d1/d1-read-gate.ts`, built from `gateEntries`) and the checks in
 * code (`gateAllows`, `filterAllows`) before anything reaches a prompt, a reply or a tool
 * result. `tests/tooling/node-reads.test.mjs` lists every statement that reads nodes and fails
 * when one does not go through it.
 *
 * Missing means less, never more: a scope an index filter names without levels is read at
 * `public` only.
 */
import type { ContextNode, NodeType, Sensitivity } from "./context-node";
import type { IndexFilter } from "./ports";
import { parseScopeKey, type Scope, type ScopeKey } from "./scope-key";

export const ALL_LEVELS: readonly Sensitivity[] = ["public", "private", "secret_like"];
export const PUBLIC_ONLY: readonly Sensitivity[] = ["public"];

/**
 * A scope as a reader may read it: the scope and, when restricted, the only sensitivity levels
 * of its nodes it may see. Absent `sensitivities` = every level.
 */
export type ReadableScope = Scope & { readonly sensitivities?: readonly Sensitivity[] };

/** One scope of the gate with the levels it is read at (never empty). */
export type GateEntry = {
  readonly type: Scope["type"];
  readonly id: string;
  readonly levels: readonly Sensitivity[];
};

const levelsAllowed = (s: ReadableScope): readonly Sensitivity[] =>
  s.sensitivities === undefined ? ALL_LEVELS : ALL_LEVELS.filter((l) => s.sensitivities?.includes(l));

/**
 * The gate's entries, in the readers' order: a scope listed twice is read at the union of its
 * levels, a scope read at no level is left out. What every SQL filter is built from.
 */
export function gateEntries(readable: readonly ReadableScope[]): GateEntry[] {
  const byKey = new Map<string, { type: Scope["type"]; id: string; levels: Set<Sensitivity> }>();
  for (const s of readable) {
    const key = `${s.type}\u0000${s.id}`;
    const entry = byKey.get(key) ?? { type: s.type, id: s.id, levels: new Set<Sensitivity>() };
    for (const l of levelsAllowed(s)) entry.levels.add(l);
    byKey.set(key, entry);
  }
  return [...byKey.values()]
    .filter((e) => e.levels.size > 0)
    .map((e) => ({ type: e.type, id: e.id, levels: ALL_LEVELS.filter((l) => e.levels.has(l)) }));
}

/** The levels a reader may see of one scope: [] when it may not read the scope at all. */
export function levelsOf(readable: readonly ReadableScope[], scope: Scope): readonly Sensitivity[] {
  return gateEntries(readable.filter((r) => r.type === scope.type && r.id === scope.id))[0]?.levels ?? [];
}

/** Whether a reader holding `readable` may see an item of this scope and sensitivity. */
export function gateAllows(
  readable: readonly ReadableScope[],
  item: { readonly scope: Scope; readonly sensitivity: Sensitivity },
): boolean {
  return levelsOf(readable, item.scope).includes(item.sensitivity);
}

/**
 * Soft scope's gate: what the reader's own scopes allow, and of every other scope only public
 * items that are portable — `private` and `secret_like` never leave the readers their scope
 * allows them for.
 */
export function softGateAllows(
  own: readonly ReadableScope[],
  item: { readonly scope: Scope; readonly sensitivity: Sensitivity; readonly portable: boolean },
): boolean {
  return gateAllows(own, item) || (item.sensitivity === "public" && item.portable);
}

/** The gate of an index filter: each of its scopes at the levels it names, else at `public`. */
export function filterEntries(filter: Pick<IndexFilter, "scopes" | "levels">): GateEntry[] {
  return gateEntries(
    filter.scopes.flatMap((key): ReadableScope[] => {
      const scope = parseScopeKey(key);
      if (!scope) return [];
      return [{ ...scope, sensitivities: filter.levels?.get(key) ?? PUBLIC_ONLY }];
    }),
  );
}

/** The index filter's gate as a check: an active node of its scopes, at a level it names. */
export function filterGate(
  filter: Pick<IndexFilter, "scopes" | "levels">,
): (node: Pick<ContextNode, "scopeType" | "scopeId" | "sensitivity" | "status">) => boolean {
  const levels = new Map(filterEntries(filter).map((e) => [`${e.type}\u0000${e.id}`, e.levels] as const));
  return (node) =>
    node.status === "active" &&
    levels.get(`${node.scopeType}\u0000${node.scopeId}`)?.includes(node.sensitivity) === true;
}

/** Whether one node passes an index filter's gate (`filterGate` for many). */
export function filterAllows(
  filter: Pick<IndexFilter, "scopes" | "levels">,
  node: Pick<ContextNode, "scopeType" | "scopeId" | "sensitivity" | "status">,
): boolean {
  return filterGate(filter)(node);
}

/** An index filter for a reader's scopes: their keys, each with the levels it may be read at. */
export function gatedFilter(
  readable: readonly ReadableScope[],
  nodeTypes: readonly NodeType[],
): Pick<IndexFilter, "scopes" | "levels" | "nodeTypes"> {
  const entries = gateEntries(readable);
  const keys = entries.map((e) => `${e.type}:${e.id}` as ScopeKey);
  return {
    scopes: keys,
    levels: new Map(entries.map((e, i) => [keys[i] as ScopeKey, e.levels])),
    nodeTypes,
  };
}
