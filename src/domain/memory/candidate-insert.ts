/**
 * A dreaming candidate that is new (docs/memory.md#dreaming): inserted, superseding the earlier
 * items of its subject in its scope.
 */

import { type Placed, scopedOf } from "./candidate-placement";
import {
  type CandidateBase,
  type DecisionRun,
  type Decisions,
  type RunMemo,
  withheld,
} from "./dream-decisions";
import type { Candidate } from "./dream-extraction";
import {
  type MemoryItem,
  memoryNodeId,
  type NewMemory,
  normalizeMemoryText,
  type Sensitivity,
} from "./memory";
import type { MemoryStore } from "./memory-store";
import { type Scope, sameScope } from "./scope";

/** A new item, superseding the items of its subject (stored, or inserted earlier in this run). */
export async function insertCandidate(
  store: MemoryStore,
  a: { input: DecisionRun; index: number; candidate: Candidate; base: CandidateBase; placed: Placed },
  run: RunMemo,
  d: Decisions,
): Promise<void> {
  const { input, candidate: c, placed: p } = a;
  const nodeId = memoryNodeId(input.runId, String(a.index), normalizeMemoryText(c.text));
  const replaced = await supersededBy(
    c,
    { scope: p.scope, levels: p.levels },
    d.existingById,
    store,
    d.consumed,
  );
  run.acceptedKeys.add(p.key);
  d.inserts.push({
    nodeId,
    scope: p.scope,
    kind: c.kind as NewMemory["kind"],
    text: c.text,
    importance: c.importance,
    confidence: input.useModel ? 0.8 : 0.6,
    sensitivity: p.tag.sensitivity,
    sensitivitySource: p.tag.source,
    portable: true,
    subjectKey: c.subjectKey,
    evidence: p.evidence,
    // Event time: what the turn said became true when it was said, not when the run wrote it.
    validFrom: p.said,
  });
  const subject = c.subjectKey ? `${p.scope.type}:${p.scope.id}|${c.subjectKey}` : null;
  const earlier = subject ? run.runSubjects.get(subject) : undefined;
  if (earlier) replaced.ids.push(earlier);
  if (subject) run.runSubjects.set(subject, nodeId);
  for (const old of replaced.ids) {
    d.consumed.add(old);
    d.supersede.push({ oldId: old, newId: nodeId, validTo: p.said });
  }
  d.record({
    ...a.base,
    ...scopedOf(p),
    decision: replaced.ids.length > 0 ? "supersede" : "insert",
    reason: replaced.ids.length > 0 || c.supersedes ? replaced.note : null,
    nodeId,
    targetNodeId: replaced.ids[0] ?? null,
    evidence: { ...p.evidence },
  });
}

/** Supersede targets: the model's pick, or earlier statements of the same subject — same scope only. */
async function supersededBy(
  c: Candidate,
  { scope, levels }: { scope: Scope; levels: readonly Sensitivity[] },
  existing: ReadonlyMap<string, MemoryItem>,
  store: MemoryStore,
  consumed: ReadonlySet<string>,
): Promise<{ ids: string[]; note: string | null }> {
  if (c.supersedes) {
    const target = existing.get(c.supersedes);
    if (target && sameScope(target.scope, scope) && !consumed.has(target.nodeId)) {
      return { ids: [target.nodeId], note: "supersedes an earlier item" };
    }
    return {
      ids: [],
      note: `supersede target ${withheld(c.supersedes)} is not an item of the target scope; inserted`,
    };
  }
  if (!c.subjectKey) return { ids: [], note: null };
  const same = levels.length > 0 ? await store.findBySubject(scope, c.subjectKey, levels) : [];
  const ids = same
    .filter(
      (m) =>
        sameScope(m.scope, scope) &&
        !consumed.has(m.nodeId) &&
        normalizeMemoryText(m.text) !== normalizeMemoryText(c.text),
    )
    .map((m) => m.nodeId);
  return { ids, note: "newer statement of the same subject" };
}
