/**
 * The parents parent expansion reads and their children's text: taken from what the keyword
 * search brought with its hits where it did, the rest read from the store in one round trip.
 */
import type { ContextNode, NodeType } from "./context-node";
import type { ContextStore, Family } from "./ports";

export type ParentFamilies = {
  readonly parents: ReadonlyMap<string, ContextNode>;
  /** Active children: how many, and their raw texts joined in order (null: too long to merge). */
  readonly families: ReadonlyMap<string, Omit<Family, "parent">>;
};

/**
 * `brought` counts only when it was read for exactly these node types: families of other types
 * differ in members and length. A parent absent from it is read.
 */
export async function parentFamilies(
  store: ContextStore,
  parentIds: readonly string[],
  nodeTypes: readonly NodeType[],
  brought: { readonly families: ReadonlyMap<string, Family>; readonly nodeTypes: readonly NodeType[] } | null,
): Promise<ParentFamilies> {
  const usable = brought && sameSet(brought.nodeTypes, nodeTypes) ? brought.families : null;
  const parents = new Map<string, ContextNode>();
  const families = new Map<string, Omit<Family, "parent">>();
  const missing: string[] = [];
  for (const id of new Set(parentIds)) {
    const f = usable?.get(id);
    if (f) {
      parents.set(id, f.parent);
      families.set(id, { count: f.count, text: f.text });
    } else missing.push(id);
  }
  if (missing.length === 0) return { parents, families };
  // Independent reads: one round trip of waiting, not two.
  const [read, rows] = await Promise.all([store.childrenOf(missing, nodeTypes), store.load(missing)]);
  for (const p of rows) parents.set(p.nodeId, p);
  for (const id of missing) {
    const parent = parents.get(id);
    // A child outside its parent's scope, or at another sensitivity level, is never merged into
    // it: the merged text is shown to whoever may read the parent (read-gate.ts).
    const children = (read.get(id) ?? []).filter(
      (c) =>
        parent &&
        c.scopeType === parent.scopeType &&
        c.scopeId === parent.scopeId &&
        c.sensitivity === parent.sensitivity,
    );
    families.set(id, { count: children.length, text: children.map((c) => c.rawText).join("\n") });
  }
  return { parents, families };
}

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
};
