/**
 * A dreaming candidate already known (docs/memory.md#dreaming): the same text in its scope, or a
 * restatement of an item there, which takes the candidate in (merge.ts).
 */

import { type Placed, scopedOf } from "./candidate-placement";
import type { CandidateBase, DecisionRun, Decisions, RunMemo } from "./dream-decisions";
import type { Candidate } from "./dream-extraction";
import type { NewMemory } from "./memory";
import type { MemoryStore } from "./memory-store";
import { boosted, mergeInto, mergeNote, restatedItem } from "./merge";
import { findRestatement } from "./restatement";
import { sameScope } from "./scope";
import { outranks } from "./sensitivity";

/**
 * True, with the duplicate recorded, when this run already inserted the same text in the scope
 * or a readable item holds it; such an item is raised (once per run) either way.
 */
export async function duplicate(
  store: MemoryStore,
  base: CandidateBase,
  p: Placed,
  run: RunMemo,
  d: Decisions,
): Promise<boolean> {
  const existingDup =
    run.acceptedKeys.has(p.key) || p.levels.length === 0
      ? null
      : await store.findDuplicate(p.scope, base.text, p.levels);
  const duplicate = run.acceptedKeys.has(p.key) ? "this run" : existingDup?.nodeId;
  if (existingDup && !run.updated.has(existingDup.nodeId)) {
    // Mentioned again: a little more important, and an explicit tag outranks what it had.
    run.updated.add(existingDup.nodeId);
    const raise = outranks(p.tag, {
      sensitivity: existingDup.sensitivity,
      source: existingDup.sensitivitySource,
    });
    d.updates.push({
      nodeId: existingDup.nodeId,
      importance: boosted(existingDup.importance),
      ...(raise ? { tag: p.tag } : {}),
    });
  }
  if (!duplicate) return false;
  d.record({
    ...base,
    ...scopedOf(p),
    decision: "duplicate",
    reason: `same text in scope (${duplicate})`,
    nodeId: null,
    targetNodeId: duplicate === "this run" ? null : duplicate,
    evidence: { ...p.evidence },
  });
  return true;
}

/**
 * True, with the merge recorded, when the candidate restates an item of its scope the source
 * turn may read — stored, or inserted earlier in this run: that item keeps its id and text and
 * takes the candidate's evidence, a higher confidence and the stricter tag (merge.ts).
 */
export async function mergeRestatement(
  a: { input: DecisionRun; candidate: Candidate; base: CandidateBase; placed: Placed },
  run: RunMemo,
  d: Decisions,
): Promise<boolean> {
  const { candidate: c, placed: p } = a;
  const statement = {
    scope: p.scope,
    kind: c.kind as NewMemory["kind"],
    text: c.text,
    subjectKey: c.subjectKey,
  };
  const incoming = {
    evidence: p.evidence,
    confidence: a.input.useModel ? 0.8 : 0.6,
    importance: c.importance,
    tag: p.tag,
  };
  const pending = d.inserts
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => sameScope(item.scope, p.scope) && p.levels.includes(item.sensitivity));
  const memo = run.scopeItems.vectors;
  const withVector = async <T extends { text: string }>(x: T) => ({ ...x, vector: await memo.of(x.text) });
  const inRun = findRestatement(
    await withVector(statement),
    await Promise.all(pending.map(({ item }) => withVector(item))),
    run.scopeItems.thresholds,
  );
  const stored = inRun
    ? null
    : await restatedItem(run.scopeItems, { ...statement, levels: p.levels }, d.consumed);
  const found = inRun ?? stored;
  if (!found) return false;
  const targetId = found.item.nodeId;
  if (inRun) {
    const index = pending.find(({ item }) => item.nodeId === targetId)?.index ?? -1;
    const target = d.inserts[index];
    if (!target) return false;
    const { merged } = mergeInto(target, incoming);
    d.inserts[index] = { ...target, ...merged, evidence: merged.evidence ?? target.evidence };
  } else if (stored) {
    const { update, merged } = mergeInto(run.merged.get(targetId) ?? stored.item, incoming);
    run.merged.set(targetId, merged);
    run.updated.add(targetId);
    const at = d.updates.findIndex((u) => u.nodeId === targetId);
    if (at >= 0) d.updates.splice(at, 1);
    d.updates.push(update);
  }
  const note = mergeNote(targetId, found.score);
  d.record({
    ...a.base,
    ...scopedOf(p),
    decision: "duplicate",
    reason: note.reason,
    nodeId: null,
    targetNodeId: targetId,
    evidence: { ...p.evidence, merge: note.merge },
  });
  return true;
}
