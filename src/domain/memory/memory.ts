/**
 * A memory item (docs/memory.md#memory-items): a context node with `node_type = memory`, its kind, scope,
 * importance, sensitivity and evidence. Plain data; stores and indexes live behind ports.
 */
import { cyrb53 } from "../kernel/content-hash";
import { type MemoryKind, type Scope, type ScopeKey, scopeKey } from "./scope";
import type { Sensitivity } from "./sensitivity-level";

export { isSensitivity, SENSITIVITIES, type Sensitivity } from "./sensitivity-level";
/**
 * Who set the sensitivity: the schema default, dreaming's tagger, where it was learned (a
 * person's private chat: `origin`, docs/memory.md#private-by-origin), or the person (or an
 * admin) explicitly.
 */
export type SensitivitySource = "default" | "dream" | "origin" | "explicit";
export type MemoryStatus = "active" | "archived" | "superseded";
export type MemoryOrigin = "dream" | "explicit" | "tool";

/** Where an item came from: the conversation it was said in (docs/retrieval.md#context-store, provenance). */
export type MemoryEvidence = {
  /** Lane key the item was written from (chat key, or chat key with a lane). */
  readonly session: string;
  readonly messageIds: readonly string[];
  readonly account: string | null;
  readonly person: string | null;
  readonly origin: MemoryOrigin;
  /** Dreaming run or inbound event that produced it. */
  readonly runId: string;
  /**
   * Every statement merged into the item, the first one included (docs/memory.md#write-time-merge);
   * absent while nothing was merged into it.
   */
  readonly sources?: readonly MemorySource[];
};

/** One statement an item was written or merged from. */
export type MemorySource = {
  readonly session: string;
  readonly runId: string;
  readonly origin: MemoryOrigin;
  readonly account: string | null;
};

export type MemoryItem = {
  readonly nodeId: string;
  readonly scope: Scope;
  readonly kind: MemoryKind;
  readonly text: string;
  readonly importance: number;
  readonly confidence: number;
  readonly sensitivity: Sensitivity;
  readonly sensitivitySource: SensitivitySource;
  /** false: public but meaningful only where it was said (a group nickname); never recalled elsewhere. */
  readonly portable: boolean;
  readonly status: MemoryStatus;
  /** Identity of the statement for supersede: `pref:<who>:<object>`, `attr:<who>:<attribute>`. */
  readonly subjectKey: string | null;
  readonly evidence: MemoryEvidence | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /**
   * Validity in time (docs/memory.md#validity-in-time), event time apart from record time:
   * when what it states became true (absent = when it was recorded) and, for an item a newer
   * statement of its subject closed, when it stopped and which item closed it.
   */
  readonly validFrom?: number;
  readonly validTo?: number | null;
  readonly closedBy?: string | null;
  /** Decay and reinforcement (decay.ts); absent on items read before they existed = none. */
  readonly decay?: ItemDecay;
};

/**
 * An item's standing in time (docs/memory.md#decay-and-reinforcement): when and how often it was
 * last reinforced (used in an answer, or said again), whether an admin keeps it forever, and for
 * a task its due time and when it expired.
 */
export type ItemDecay = {
  readonly reinforcedAt: number | null;
  readonly reinforceCount: number;
  readonly keepForever: boolean;
  readonly dueAt: number | null;
  readonly expiredAt: number | null;
};

export type NewMemory = Omit<
  MemoryItem,
  "status" | "createdAt" | "updatedAt" | "validTo" | "closedBy" | "decay"
>;

/** When an item's statement became true: its event time, else when it was recorded. */
export const validFromOf = (item: Pick<MemoryItem, "validFrom" | "createdAt">): number =>
  item.validFrom ?? item.createdAt;

/** A closed item: a newer statement of its subject ended it; recalled only as the past. */
export const isClosed = (item: Pick<MemoryItem, "status">): boolean => item.status === "superseded";

/** Normalized form used for de-duplication: NFKC, lower case, no spaces or punctuation. */
export function normalizeMemoryText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, "");
}

export const itemScopeKey = (item: Pick<MemoryItem, "scope">): ScopeKey => scopeKey(item.scope);

/** Clamps a model- or user-supplied importance into [0, 1]; junk becomes the fallback. */
export function clampImportance(value: unknown, fallback: number): number {
  if (typeof value !== "number" || !Number.isFinite(value)) return fallback;
  return Math.min(1, Math.max(0, value));
}

/**
 * A stable, deterministic id for a memory written by a run: a retried run (alarm, turn)
 * derives the same id, so inserting again is a no-op. Two seeded 53-bit hashes, base 36.
 */
export function memoryNodeId(...parts: readonly string[]): string {
  const text = parts.join("\u0000");
  const a = cyrb53(text, 0).toString(36).padStart(11, "0");
  const b = cyrb53(text, 0x9e3779b9).toString(36).padStart(11, "0");
  return `m_${a}${b}`;
}
