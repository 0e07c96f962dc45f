/**
 * What merging a restatement into an existing item changes (docs/memory.md#write-time-merge):
 * the item keeps its id and its text; its evidence gains the new statement's messages and
 * source; its confidence rises, bounded; its importance rises as for any repeat; its sensitivity
 * becomes the stricter of the two tags and is never lowered. Restatements are found only among
 * items of the same scope the writer may read (restatement.ts), so a merge never tells a writer
 * about an item it could not see. Numbers: docs/decisions/0410-write-time-merge-of-restatements.md.
 */
import type { MemoryEvidence, MemoryItem, MemorySource, Sensitivity } from "./memory";
import type { MemoryStore, MemoryUpdate } from "./memory-store";
import {
  findRestatement,
  RESTATEMENT_THRESHOLDS,
  type RestatementScore,
  type RestatementThresholds,
  type Statement,
} from "./restatement";
import { VectorMemo } from "./restatement-vectors";
import type { Scope } from "./scope";
import { type SensitivityTag, stricter } from "./sensitivity";

/** Importance an item gains each time it is stated again. */
export const REMENTION_BOOST = 0.05;

/** The importance of an item stated once more (capped at 1, kept to three decimals). */
export const boosted = (importance: number): number =>
  Number(Math.min(1, importance + REMENTION_BOOST).toFixed(3));

/** A merge raises confidence towards this bound and never past it (decision 0410). */
export const MERGED_CONFIDENCE_CAP = 0.95;
/** Message ids and sources an item keeps: the oldest stay, later ones past the cap are dropped. */
const MAX_MESSAGE_IDS = 50;
const MAX_SOURCES = 20;

/** Two independent statements of one thing: 1 − (1 − a)(1 − b), capped; never below `a`. */
export function mergedConfidence(existing: number, incoming: number): number {
  const joint = 1 - (1 - existing) * (1 - incoming);
  return Number(Math.max(existing, Math.min(MERGED_CONFIDENCE_CAP, joint)).toFixed(3));
}

const sourceOf = (e: MemoryEvidence): MemorySource => ({
  session: e.session,
  runId: e.runId,
  origin: e.origin,
  account: e.account,
});

/** The item's evidence with the restatement's messages and source joined in. */
export function joinEvidence(existing: MemoryEvidence | null, incoming: MemoryEvidence): MemoryEvidence {
  if (!existing) return { ...incoming, sources: [sourceOf(incoming)] };
  const messageIds = [...new Set([...existing.messageIds, ...incoming.messageIds])].slice(0, MAX_MESSAGE_IDS);
  const sources = [...(existing.sources ?? [sourceOf(existing)]), sourceOf(incoming)].slice(0, MAX_SOURCES);
  return { ...existing, messageIds, sources };
}

/** The stricter of two tags, or null when the existing tag is already as strict. */
export function stricterTag(existing: SensitivityTag, incoming: SensitivityTag): SensitivityTag | null {
  return stricter(existing.sensitivity, incoming.sensitivity) === existing.sensitivity ? null : incoming;
}

export type MergeTarget = Pick<
  MemoryItem,
  "nodeId" | "importance" | "confidence" | "sensitivity" | "sensitivitySource" | "evidence"
>;

/** The incoming statement: its evidence, confidence, importance and tag. */
export type MergeIncoming = {
  readonly evidence: MemoryEvidence;
  readonly confidence: number;
  readonly importance: number;
  readonly tag: SensitivityTag;
};

/** The update that merges `incoming` into `target`, and the target as it then reads. */
export function mergeInto(
  target: MergeTarget,
  incoming: MergeIncoming,
): { readonly update: MemoryUpdate; readonly merged: MergeTarget } {
  const tag = stricterTag(
    { sensitivity: target.sensitivity, source: target.sensitivitySource },
    incoming.tag,
  );
  const merged: MergeTarget = {
    nodeId: target.nodeId,
    importance: boosted(Math.max(target.importance, incoming.importance)),
    confidence: mergedConfidence(target.confidence, incoming.confidence),
    sensitivity: tag?.sensitivity ?? target.sensitivity,
    sensitivitySource: tag?.source ?? target.sensitivitySource,
    evidence: joinEvidence(target.evidence, incoming.evidence),
  };
  return {
    update: {
      nodeId: target.nodeId,
      importance: merged.importance,
      confidence: merged.confidence,
      ...(merged.evidence ? { evidence: merged.evidence } : {}),
      ...(tag ? { tag } : {}),
    },
    merged,
  };
}

/** The candidate record's reason and evidence note of a merge. */
export function mergeNote(
  targetId: string,
  score: RestatementScore,
): { reason: string; merge: Record<string, unknown> } {
  return {
    reason: `restatement merged into ${targetId}`,
    merge: {
      into: targetId,
      lexical: Number(score.lexical.toFixed(3)),
      cosine: score.cosine === null ? null : Number(score.cosine.toFixed(3)),
    },
  };
}

/** Items of a scope at most a lookup reads: the most important first (listActive's order). */
const SCOPE_ITEMS_LIMIT = 200;

/** An item of the pool with its stored vector, when vectors take part and it has one. */
export type PoolItem = MemoryItem & { readonly vector?: readonly number[] };

/**
 * The items of one scope, kind and set of levels a writer may read, read once per write (or
 * dreaming run) through the store's gated listing and kept for the next statement — and, only
 * when words found no restatement and a measured model takes part, the stored vectors of exactly
 * those items (restatement-vectors.ts).
 */
export class ScopeItems {
  readonly #store: Pick<MemoryStore, "listActive">;
  readonly #seen = new Map<string, Promise<MemoryItem[]>>();
  readonly #stored = new Map<string, Promise<ReadonlyMap<string, readonly number[]>>>();
  readonly vectors: VectorMemo;

  constructor(store: Pick<MemoryStore, "listActive">, vectors: VectorMemo = new VectorMemo(null)) {
    this.#store = store;
    this.vectors = vectors;
  }

  /** The detector's thresholds: the lexical one, and the model's cosine when vectors take part. */
  get thresholds(): RestatementThresholds {
    return {
      lexical: RESTATEMENT_THRESHOLDS.lexical,
      cosine: this.vectors.threshold ?? Number.POSITIVE_INFINITY,
    };
  }

  read(scope: Scope, levels: readonly Sensitivity[], kind: string): Promise<MemoryItem[]> {
    const key = poolKey(scope, levels, kind);
    let items = this.#seen.get(key);
    if (!items) {
      items = this.#store.listActive({
        scopes: [{ ...scope, sensitivities: levels }],
        limit: SCOPE_ITEMS_LIMIT,
        kinds: [kind],
      });
      this.#seen.set(key, items);
    }
    return items;
  }

  /** The pool's items with their stored vectors, read once per pool. */
  async withVectors(scope: Scope, levels: readonly Sensitivity[], kind: string): Promise<PoolItem[]> {
    const items = await this.read(scope, levels, kind);
    const key = poolKey(scope, levels, kind);
    let stored = this.#stored.get(key);
    if (!stored) {
      stored = this.vectors.stored(items.map((m) => m.nodeId));
      this.#stored.set(key, stored);
    }
    const vectors = await stored;
    return items.map((m): PoolItem => {
      const vector = vectors.get(m.nodeId);
      return vector ? { ...m, vector } : m;
    });
  }
}

const poolKey = (scope: Scope, levels: readonly Sensitivity[], kind: string) =>
  `${scope.type}:${scope.id}|${[...levels].sort().join(",")}|${kind}`;

/**
 * The readable item of the statement's scope it restates, if any: never an item of another
 * scope, nor one at a level the writer may not read, nor one in `skip` (closed by this write).
 * Words first; the model's vectors are embedded and read only when words found nothing.
 */
export async function restatedItem(
  items: ScopeItems,
  s: Statement & { readonly levels: readonly Sensitivity[] },
  skip: ReadonlySet<string> = new Set(),
): Promise<{ item: MemoryItem; score: RestatementScore } | null> {
  if (s.levels.length === 0) return null;
  const usable = (m: MemoryItem) => !skip.has(m.nodeId) && s.levels.includes(m.sensitivity);
  const pool = (await items.read(s.scope, s.levels, s.kind)).filter(usable);
  if (pool.length === 0) return null;
  const byWords = findRestatement({ ...s, vector: null }, pool, {
    lexical: RESTATEMENT_THRESHOLDS.lexical,
    cosine: Number.POSITIVE_INFINITY,
  });
  if (byWords || items.vectors.threshold === null) return byWords;
  const vector = s.vector ?? (await items.vectors.of(s.text));
  if (!vector) return null;
  const withVectors = (await items.withVectors(s.scope, s.levels, s.kind)).filter(usable);
  const found = findRestatement({ ...s, vector }, withVectors, items.thresholds);
  return found ? { item: withoutVector(found.item), score: found.score } : null;
}

/** The item as the store gave it: a vector is the detector's, not the merge's. */
function withoutVector({ vector: _vector, ...item }: PoolItem): MemoryItem {
  return item;
}
