/**
 * Decay and reinforcement (docs/memory.md#decay-and-reinforcement): an item's ranking weight
 * halves every `memory.decay.halfLifeDays.<kind>` days since it was recorded or last reinforced,
 * down to a floor; a kind with half-life 0 and an item kept forever do not decay. A task expires
 * when its due time passed or its lifetime ran out. Decay changes only ranking and expiry — never
 * who may read an item: every read still passes the read gate first.
 */
import type { MemoryDecaySettings } from "../config/memory-decay-settings";
import type { ItemDecay, MemoryItem } from "./memory";

const DAY_MS = 86_400_000;

/**
 * The lowest weight decay gives: an old item stays findable when nothing fresher matches, and a
 * much better match still outranks a fresh weak one (decision 0420).
 */
export const DECAY_FLOOR = 0.1;

export const NO_DECAY: ItemDecay = {
  reinforcedAt: null,
  reinforceCount: 0,
  keepForever: false,
  dueAt: null,
  expiredAt: null,
};

type Decaying = Pick<MemoryItem, "kind" | "createdAt" | "decay">;

/** When the item's age is counted from: its recording, or its last reinforcement if later. */
export function decayAnchor(item: Pick<MemoryItem, "createdAt" | "decay">): number {
  return Math.max(item.createdAt, item.decay?.reinforcedAt ?? 0);
}

/** The half-life of the item's kind in days; 0 = no decay. */
export function halfLifeOf(item: Pick<MemoryItem, "kind">, cfg: MemoryDecaySettings): number {
  return cfg.halfLifeDays[item.kind] ?? 0;
}

/** The item's age weight in [DECAY_FLOOR, 1]: 1 when kept forever or its kind does not decay. */
export function decayWeight(item: Decaying, now: number, cfg: MemoryDecaySettings): number {
  const halfLife = halfLifeOf(item, cfg);
  if (item.decay?.keepForever || halfLife <= 0) return 1;
  const ageDays = Math.max(0, now - decayAnchor(item)) / DAY_MS;
  return Math.max(DECAY_FLOOR, 2 ** (-ageDays / halfLife));
}

export type ExpiryCause = "due" | "lifetime" | "done";

/**
 * Why an active task expires at `now`, or null: its due time passed, or it has none and nobody
 * reinforced it for `taskLifetimeDays`. Items kept forever and other kinds never expire here.
 */
export function expiryOf(
  item: Pick<MemoryItem, "kind" | "status" | "createdAt" | "decay">,
  now: number,
  cfg: MemoryDecaySettings,
): Exclude<ExpiryCause, "done"> | null {
  if (item.kind !== "task" || item.status !== "active" || item.decay?.keepForever) return null;
  const due = item.decay?.dueAt ?? null;
  if (due !== null) return due <= now ? "due" : null;
  if (cfg.taskLifetimeDays <= 0) return null;
  return now - decayAnchor(item) >= cfg.taskLifetimeDays * DAY_MS ? "lifetime" : null;
}

/** What a reinforcement is for: a turn's answer that used the item, or the item said again. */
export type ReinforceCause = {
  readonly kind: "used" | "restated";
  /** The event, run or write that caused it: the same key twice reinforces once. */
  readonly key: string;
};

/**
 * The stored items a write said again: every candidate decided `duplicate` — an exact repeat or a
 * restatement merged into the item (merge.ts) — names its target. A commit passes them as
 * `restated`, so saying something again reinforces it.
 */
export function restatedTargets(
  records: readonly { readonly decision: string; readonly targetNodeId: string | null }[],
): string[] {
  return [
    ...new Set(
      records.flatMap((r) => (r.decision === "duplicate" && r.targetNodeId ? [r.targetNodeId] : [])),
    ),
  ];
}
