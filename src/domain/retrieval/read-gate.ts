/**
 * The one read gate (docs/memory.md#recall-cascade): which stored nodes — memory items,
 * summaries, knowledge — a reader may see. A reader holds readable scopes, each with the
 * sensitivity levels it may see of that scope; a node is visible when its scope is one of
 * them at its level. Every reader of nodes derives its filter from here: the SQL of the D1
 * adapters (`src/adapters/d1/d1-read-gate.ts`, built from `gateEntries`) and the checks in
 * code (`gateAllows`) before anything reaches a prompt, a reply or a tool result.
 */
import type { Sensitivity } from "./context-node";
import type { Scope } from "./scope-key";

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
