/**
 * Dreaming (docs/memory.md#dreaming): consolidates one chat's recent turns into long-term memory.
 *
 *   turns → extract (model with JSON schema, or rules offline) → kind → scope
 *         → sensitivity → deduplicate within the target scope → merge a restatement into the
 *         item it restates (merge.ts) → insert / supersede / archive
 *         → one atomic commit with every candidate and its decision (memory_candidates)
 *
 * A run only ever sees, deduplicates against, supersedes or archives items of the scopes its
 * turns may write; another chat's items are invisible to it, so they can neither swallow a
 * new item as a "duplicate" nor be archived by it.
 */

import type { Settings } from "../config/settings";
import type { Logger } from "../kernel/logger";
import { ok, type Result } from "../kernel/result";
import type { ChatModel, UsageRecord } from "../model/chat-model";
import { decideArchives } from "./archive-decisions";
import { decideCandidates } from "./candidate-decisions";
import { type Committed, commitRun } from "./dream-commit";
import type { Decisions } from "./dream-decisions";
import { extractCandidates } from "./dream-extraction";
import { applyPrivacyMarkers, type DreamTurn } from "./dream-turn";
import type { CandidateRecord, MemoryStore } from "./memory-store";
import { learnedInPrivate } from "./origin";
import { type RestatementVectors, VectorMemo } from "./restatement-vectors";
import { dedupeScopes, includesScope, turnScopes } from "./scope";

export type { DreamTurn } from "./dream-turn";

export type DreamInput = {
  readonly runId: string;
  /** The chat key (session) whose turns these are. */
  readonly session: string;
  readonly turns: readonly DreamTurn[];
  /**
   * Turns after the run that wait in the journal, still inside the privacy window of its last
   * turns: read only for their requests about the run's turns ("机器人别记这个" a few minutes on),
   * never extracted.
   */
  readonly later?: readonly DreamTurn[];
  readonly now: number;
  /** False in offline mode: the rule-based extractor runs instead of the model. */
  readonly useModel: boolean;
};

export type DreamDeps = {
  readonly model: ChatModel;
  readonly store: MemoryStore;
  readonly logger: Logger;
  readonly now: () => number;
  /** Merge restatements into the items they restate (default); false only for a baseline. */
  readonly mergeRestatements?: boolean;
  /** The read model's vectors, when its restatement threshold is measured (restatement-vectors.ts). */
  readonly restatements?: RestatementVectors | null;
};

export type DreamReport = {
  readonly runId: string;
  readonly extractor: "model" | "rules";
  readonly candidates: number;
  readonly inserted: number;
  readonly superseded: number;
  readonly archived: number;
  readonly duplicates: number;
  readonly rejected: number;
  readonly alreadyApplied: boolean;
  readonly usage: UsageRecord | null;
};

export type DreamError = {
  readonly kind: "model" | "malformed";
  readonly reason: string;
  readonly usage: UsageRecord | null;
};

/** Existing items shown to the model (and checked for duplicates and supersedes). */
const EXISTING_LIMIT = 80;

export async function dream(input: DreamInput, deps: DreamDeps): Promise<Result<DreamReport, DreamError>> {
  const turns = applyPrivacyMarkers(input.turns, input.later);
  const scopeInputs = turns.map((t) => ({ session: input.session, identity: t.identity }));
  const writable = dedupeScopes(scopeInputs.flatMap((s) => turnScopes(s).writable));
  // What the extractor is shown as already known: the writable scopes at the levels this chat
  // may read them (a person's private items never reach a model working on a group's turns).
  const shown = dedupeScopes(scopeInputs.flatMap((s) => turnScopes(s).readable)).filter((r) =>
    includesScope(writable, r),
  );
  const existing = await deps.store.listActive({ scopes: shown, limit: EXISTING_LIMIT });
  const privateChat = learnedInPrivate(input.session);

  // 1. Extract (dream-extraction.ts).
  const extracted = await extractCandidates(input, turns, existing, deps);
  if (!extracted.ok) return extracted;
  if (extracted.value === null) return ok(emptyReport(input.runId, input.useModel ? "model" : "rules"));
  const { candidates, archiveRequests, summaryText, usage } = extracted.value;

  // 2. Decide, candidate by candidate, then the archive requests (candidate-decisions.ts,
  //    archive-decisions.ts).
  const decided = await decideCandidates(input, turns, candidates, existing, privateChat, {
    store: deps.store,
    merge: deps.mergeRestatements !== false,
    vectors: new VectorMemo(deps.restatements ?? null, deps.logger),
  });
  decideArchives(input, archiveRequests, writable, decided);

  // 3. Commit once (dream-commit.ts).
  const committed = await commitRun(input, turns, writable, decided, summaryText, privateChat, deps.store);
  return ok(reportOf(input, decided, committed, usage));
}

/** The run's report: what was decided, and what the store kept of it. */
function reportOf(
  input: DreamInput,
  { records }: Decisions,
  committed: Committed,
  usage: UsageRecord | null,
): DreamReport {
  const count = (d: CandidateRecord["decision"]) => records.filter((r) => r.decision === d).length;
  return {
    runId: input.runId,
    extractor: input.useModel ? "model" : "rules",
    candidates: records.length,
    inserted: committed.inserted,
    superseded: committed.superseded,
    archived: committed.archived,
    duplicates: count("duplicate"),
    rejected: count("rejected"),
    alreadyApplied: committed.alreadyApplied,
    usage,
  };
}

function emptyReport(runId: string, extractor: "model" | "rules"): DreamReport {
  return {
    runId,
    extractor,
    candidates: 0,
    inserted: 0,
    superseded: 0,
    archived: 0,
    duplicates: 0,
    rejected: 0,
    alreadyApplied: false,
    usage: null,
  };
}

/**
 * When the next run is due: at once when `afterTurns` user turns wait, else after the chat
 * has been idle for `idleMinutes` since the newest waiting turn; failed runs back off
 * exponentially (1 min, 2 min, 4 min, … capped at 6 h). Null when nothing waits.
 *
 * `settleMs` holds a run back until the oldest waiting turn is that old: a shared chat's turn
 * is dreamed only once a privacy request of its speaker can no longer reach it
 * (docs/decisions/0610-dreams-wait-for-the-privacy-window.md), and the run reads only turns
 * settled so (`settledBefore`).
 */
export function nextDreamAt(
  state: {
    pending: number;
    newestTs: number | null;
    oldestTs: number | null;
    failures: number;
    lastFailureAt: number | null;
  },
  settings: Settings["memory"]["dreaming"],
  now: number,
  settleMs = 0,
): number | null {
  if (!settings.enabled || state.pending === 0 || state.newestTs === null) return null;
  let at = state.pending >= settings.afterTurns ? now : state.newestTs + settings.idleMinutes * 60_000;
  if (settleMs > 0) at = Math.max(at, (state.oldestTs ?? state.newestTs) + settleMs);
  if (state.failures > 0 && state.lastFailureAt !== null) {
    at = Math.max(at, state.lastFailureAt + Math.min(6 * 3_600_000, 60_000 * 2 ** (state.failures - 1)));
  }
  return at;
}
