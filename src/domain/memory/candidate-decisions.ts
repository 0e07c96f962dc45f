/**
 * Step 2 of a dreaming run (docs/memory.md#dreaming): each candidate, in order, is rejected, a
 * duplicate, merged into the item it restates, or inserted.
 */

import { duplicate, mergeRestatement } from "./candidate-duplicates";
import { insertCandidate } from "./candidate-insert";
import { placeCandidate } from "./candidate-placement";
import {
  type CandidateBase,
  type DecisionRun,
  type Decisions,
  type RunMemo,
  unscoped,
  WITHHELD,
} from "./dream-decisions";
import type { Candidate } from "./dream-extraction";
import { evidenceOf, type MarkedTurn, strictestRequest, userTurn } from "./dream-turn";
import type { MemoryItem } from "./memory";
import type { CandidateRecord, MemoryStore } from "./memory-store";
import { ScopeItems } from "./merge";
import type { VectorMemo } from "./restatement-vectors";
import { neverStored } from "./sensitivity";

/** Step 2: kind → scope → sensitivity → duplicate, supersede or insert, for each candidate. */
export async function decideCandidates(
  input: DecisionRun,
  turns: readonly MarkedTurn[],
  candidates: readonly Candidate[],
  existing: readonly MemoryItem[],
  privateChat: boolean,
  { store, merge, vectors }: { store: MemoryStore; merge: boolean; vectors: VectorMemo },
): Promise<Decisions> {
  const records: CandidateRecord[] = [];
  const d: Decisions = {
    records,
    inserts: [],
    supersede: [],
    archive: [],
    updates: [],
    existingById: new Map(existing.map((m) => [m.nodeId, m])),
    consumed: new Set<string>(),
    record: (r) => {
      records.push({ runId: input.runId, chatKey: input.session, origin: "dream", ...r });
    },
  };
  const run: RunMemo = {
    acceptedKeys: new Set(),
    updated: new Set(),
    runSubjects: new Map(),
    merge,
    scopeItems: new ScopeItems(store, vectors),
    merged: new Map(),
  };
  // One embedding call for the run's statements; never for a text that may not be stored.
  if (merge) await vectors.prepare(candidates.map((c) => c.text).filter((t) => !neverStored(t)));
  // The model may cite any turn for what another turn said: its candidates are bounded by every
  // request of the run. The rules extract each turn's own words, so its own request covers them.
  const runRequest = input.useModel ? strictestRequest(turns) : null;
  for (const [i, c] of candidates.entries()) {
    const source = userTurn(turns, c.turn);
    const base: CandidateBase = { kind: c.kind, text: c.text, importance: c.importance, targetNodeId: null };
    // Checked before anything of the candidate is recorded, whatever turn it cites: a model can
    // reassemble a secret sent in pieces or quote one from the bot's own turn.
    if (!source || neverStored(c.text) || neverStored(source.text)) {
      reject(input, base, source, d);
      continue;
    }
    const placed = placeCandidate(input, c, source, privateChat, runRequest);
    if (await duplicate(store, base, placed, run, d)) continue;
    if (run.merge && (await mergeRestatement({ input, candidate: c, base, placed }, run, d))) continue;
    await insertCandidate(store, { input, index: i, candidate: c, base, placed }, run, d);
  }
  return d;
}

/** A candidate that holds a credential (withheld whole), or that cites no user turn. */
function reject(input: DecisionRun, base: CandidateBase, source: MarkedTurn | null, d: Decisions): void {
  if (neverStored(base.text) || (source && neverStored(source.text))) {
    d.record({
      ...base,
      text: WITHHELD,
      ...unscoped(input.session),
      decision: "rejected",
      reason: "credential",
      nodeId: null,
      evidence: source ? { ...evidenceOf(input, source) } : {},
    });
    return;
  }
  d.record({
    ...base,
    ...unscoped(input.session),
    decision: "rejected",
    reason: "no user turn",
    nodeId: null,
    evidence: {},
  });
}
