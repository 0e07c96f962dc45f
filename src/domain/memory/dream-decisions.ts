/**
 * What the decisions of one dreaming run add up to (docs/memory.md#dreaming), and what each
 * later candidate of the run must see of the earlier ones.
 */

import type { TurnRun } from "./dream-turn";
import type { MemoryItem, NewMemory } from "./memory";
import type { CandidateRecord, MemoryUpdate } from "./memory-store";
import type { MergeTarget, ScopeItems } from "./merge";
import { resolveScopeFromLaneKey } from "./scope";
import { neverStored } from "./sensitivity";

/** The run the decisions belong to; the model's candidates are trusted more than the rules'. */
export type DecisionRun = TurnRun & { readonly useModel: boolean };

/** Everything the decisions of one run add up to, and the bookkeeping between them. */
export type Decisions = {
  readonly records: CandidateRecord[];
  readonly inserts: NewMemory[];
  readonly supersede: { oldId: string; newId: string; validTo?: number }[];
  readonly archive: string[];
  readonly updates: MemoryUpdate[];
  readonly existingById: ReadonlyMap<string, MemoryItem>;
  /** Existing items already superseded or archived by this run. */
  readonly consumed: Set<string>;
  readonly record: (r: Omit<CandidateRecord, "runId" | "chatKey" | "origin">) => void;
};

/** What one run has decided so far that later candidates of the same run must see. */
export type RunMemo = {
  /** Scope and normalised text of every candidate inserted: a repeat is a duplicate. */
  readonly acceptedKeys: Set<string>;
  /** Existing items already raised by a repeat: raised once per run. */
  readonly updated: Set<string>;
  /** Items inserted by this run, by scope and subject: a later statement supersedes them too. */
  readonly runSubjects: Map<string, string>;
  /** Restatements merge (false only for a baseline), the items they may merge into, read once. */
  readonly merge: boolean;
  readonly scopeItems: ScopeItems;
  /** Stored items a restatement was merged into, as they read after it. */
  readonly merged: Map<string, MergeTarget>;
};

export type CandidateBase = { kind: string; text: string; importance: number; targetNodeId: null };

/** What the audit trail keeps of a text that held a credential: nothing of the text. */
export const WITHHELD = "[credential withheld]";

/** A text the model wrote, as recorded: withheld whole when it holds a credential. */
export const withheld = (text: string) => (neverStored(text) ? WITHHELD : text);

export const unscoped = (session: string) => ({
  scope: resolveScopeFromLaneKey(session),
  sensitivity: "public" as const,
  sensitivitySource: "default" as const,
});
