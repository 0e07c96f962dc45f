/**
 * The writes of one explicit memory call (remember.ts), planned statement by statement: a
 * duplicate raises the item it repeats, a restatement merges into the item it restates
 * (merge.ts), anything else is inserted, superseding earlier items of its subject.
 */

import { levelsOf } from "../retrieval/read-gate";
import {
  type MemoryEvidence,
  type MemoryItem,
  memoryNodeId,
  type NewMemory,
  normalizeMemoryText,
} from "./memory";
import type { CandidateRecord, MemoryStore, MemoryUpdate } from "./memory-store";
import { boosted, type MergeTarget, mergeInto, mergeNote, restatedItem, type ScopeItems } from "./merge";
import type { Extracted } from "./rule-extractor";
import type { MemoryKind, turnScopes } from "./scope";
import { outranks, type SensitivityTag } from "./sensitivity";

export type Remembered = {
  /** `merge`: it restated an item of its scope, which took it in (merge.ts); `item` is that item. */
  readonly decision: "insert" | "supersede" | "duplicate" | "merge";
  readonly item: Pick<MemoryItem, "nodeId" | "kind" | "text" | "scope" | "sensitivity" | "sensitivitySource">;
};

/** The writes of one remember call, gathered statement by statement and committed at once. */
export type WritePlan = {
  readonly out: Remembered[];
  readonly candidates: CandidateRecord[];
  readonly inserts: NewMemory[];
  readonly supersede: { oldId: string; newId: string; validTo?: number }[];
  readonly updates: MemoryUpdate[];
  /** The items of a scope a restatement may merge into, and the ones merged into so far. */
  readonly scopeItems: ScopeItems;
  readonly merged: Map<string, MergeTarget & Remembered["item"]>;
};

type CandidateBase = Omit<CandidateRecord, "decision" | "reason" | "nodeId" | "targetNodeId">;
type Tag = SensitivityTag;

/**
 * One statement, in the scope already chosen for it (`record.scope`): a duplicate of an item
 * this turn may read raises that item's importance (and its tag, when stricter); anything else
 * is inserted, superseding earlier items of the same subject.
 */
export async function planStatement(
  store: MemoryStore,
  s: {
    statement: Extracted & { readonly kind: MemoryKind };
    record: CandidateBase & { readonly importance: number };
    tag: Tag;
    readable: ReturnType<typeof turnScopes>["readable"];
    evidence: MemoryEvidence;
    runId: string;
    now: number;
  },
  plan: WritePlan,
): Promise<void> {
  const { statement, record, tag } = s;
  const scope = record.scope;
  // Only items this turn may read count as already known: a write in a group that matches a
  // person's private item is a new write, and answers as one.
  const levels = levelsOf(s.readable, scope);
  const dup = levels.length > 0 ? await store.findDuplicate(scope, statement.text, levels) : null;
  if (dup) {
    const raise = outranks(tag, { sensitivity: dup.sensitivity, source: dup.sensitivitySource });
    // Said again on purpose: a little more important, and the stricter tag if asked for.
    plan.updates.push({
      nodeId: dup.nodeId,
      importance: boosted(Math.max(dup.importance, record.importance)),
      ...(raise ? { tag } : {}),
    });
    plan.candidates.push({
      ...record,
      decision: "duplicate",
      reason: raise ? "already remembered; sensitivity updated" : "already remembered",
      nodeId: null,
      targetNodeId: dup.nodeId,
    });
    plan.out.push({
      decision: "duplicate",
      item: raise ? { ...dup, sensitivity: tag.sensitivity, sensitivitySource: tag.source } : dup,
    });
    return;
  }
  const restated = await restatedItem(plan.scopeItems, { ...statement, scope, levels });
  if (restated) {
    planMerge(restated, { record, tag, evidence: s.evidence }, plan);
    return;
  }
  const nodeId = memoryNodeId(s.runId, scope.type, scope.id, normalizeMemoryText(statement.text));
  const older = statement.subjectKey
    ? (await store.findBySubject(scope, statement.subjectKey, levels)).filter((m) => m.nodeId !== nodeId)
    : [];
  for (const o of older) plan.supersede.push({ oldId: o.nodeId, newId: nodeId, validTo: s.now });
  plan.inserts.push({
    nodeId,
    scope,
    kind: statement.kind,
    text: statement.text,
    importance: record.importance,
    confidence: 1,
    sensitivity: tag.sensitivity,
    sensitivitySource: tag.source,
    portable: true,
    subjectKey: statement.subjectKey,
    evidence: s.evidence,
    validFrom: s.now,
  });
  const decision = older.length > 0 ? "supersede" : "insert";
  plan.candidates.push({
    ...record,
    decision,
    reason: decision === "supersede" ? "newer statement of the same subject" : null,
    nodeId,
    targetNodeId: older[0]?.nodeId ?? null,
  });
  plan.out.push({
    decision,
    item: {
      nodeId,
      kind: statement.kind,
      text: statement.text,
      scope,
      sensitivity: tag.sensitivity,
      sensitivitySource: tag.source,
    },
  });
}

/** A restatement merged into the item it restates: the item keeps its id and text (merge.ts). */
function planMerge(
  restated: NonNullable<Awaited<ReturnType<typeof restatedItem>>>,
  s: { record: CandidateBase & { readonly importance: number }; tag: Tag; evidence: MemoryEvidence },
  plan: WritePlan,
): void {
  const target = plan.merged.get(restated.item.nodeId) ?? restated.item;
  const { update, merged } = mergeInto(target, {
    evidence: s.evidence,
    confidence: 1,
    importance: s.record.importance,
    tag: s.tag,
  });
  plan.merged.set(target.nodeId, { ...target, ...merged });
  const at = plan.updates.findIndex((u) => u.nodeId === target.nodeId);
  if (at >= 0) plan.updates.splice(at, 1);
  plan.updates.push(update);
  const note = mergeNote(target.nodeId, restated.score);
  plan.candidates.push({
    ...s.record,
    decision: "duplicate",
    reason: note.reason,
    nodeId: null,
    targetNodeId: target.nodeId,
    evidence: { ...s.record.evidence, merge: note.merge },
  });
  plan.out.push({
    decision: "merge",
    item: {
      nodeId: target.nodeId,
      kind: target.kind,
      text: target.text,
      scope: target.scope,
      sensitivity: merged.sensitivity,
      sensitivitySource: merged.sensitivitySource,
    },
  });
}
