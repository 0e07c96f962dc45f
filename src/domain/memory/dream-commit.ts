/**
 * Step 3 of a dreaming run (docs/memory.md#dreaming): one atomic commit of every candidate and
 * its decision (memory_candidates), with the chat's summary of the turns.
 */

import { restatedTargets } from "./decay";
import type { Decisions } from "./dream-decisions";
import { type MarkedTurn, strictestRequest, type TurnRun } from "./dream-turn";
import { memoryNodeId } from "./memory";
import type { MemoryStore, SummaryNode } from "./memory-store";
import { resolveScopeFromLaneKey, type Scope } from "./scope";
import { dreamSensitivity, neverStored, stricter } from "./sensitivity";

/** What the store kept of a run; `alreadyApplied` when the run was committed before. */
export type Committed = {
  readonly inserted: number;
  readonly superseded: number;
  readonly archived: number;
  readonly alreadyApplied: boolean;
};

/** Step 3: one atomic commit of everything decided. */
export async function commitRun(
  input: TurnRun & { readonly now: number },
  turns: readonly MarkedTurn[],
  writable: readonly Scope[],
  d: Decisions,
  summaryText: string | null,
  privateChat: boolean,
  store: MemoryStore,
): Promise<Committed> {
  const { records, inserts, supersede, archive, updates } = d;
  const summary = summaryNode(input, summaryText, privateChat, turns);
  const committed = await store.commit({
    runId: input.runId,
    chatKey: input.session,
    at: input.now,
    writable,
    inserts,
    supersede,
    archive,
    updates,
    candidates: records,
    restated: restatedTargets(records),
    summary,
    run: { kind: "dream", turns: turns.length },
  });
  return {
    inserted: committed.ok ? committed.value.inserted : 0,
    superseded: committed.ok ? committed.value.superseded : 0,
    archived: committed.ok ? committed.value.archived : 0,
    alreadyApplied: !committed.ok,
  };
}

function summaryNode(
  input: TurnRun,
  text: string | null,
  privateChat: boolean,
  turns: readonly MarkedTurn[],
): SummaryNode | null {
  const scope = resolveScopeFromLaneKey(input.session);
  if (!text || scope.type !== "chat" || neverStored(text)) return null;
  const users = turns.filter((t) => t.role === "user");
  return {
    nodeId: memoryNodeId(input.runId, "summary"),
    scope,
    text,
    ...(privateChat
      ? { sensitivity: "private" as const, sensitivitySource: "origin" as const }
      : sharedChatTag(text, turns)),
    evidence: {
      session: input.session,
      messageIds: users.map((t) => t.messageId).filter((id): id is string => id !== null),
      account: null,
      person: null,
      origin: "dream",
      runId: input.runId,
    },
  };
}

/**
 * A shared chat's summary is written from every turn of the run, so whatever the model chose to
 * quote, it is at least as private as the most private request a speaker made in the run: a
 * message marked private stays in its chat, and siblings read a chat's summaries at public only.
 */
function sharedChatTag(text: string, turns: readonly MarkedTurn[]) {
  const noticed = dreamSensitivity(text, { privateChat: false });
  const asked = strictestRequest(turns);
  return { sensitivity: asked ? stricter(noticed, asked) : noticed, sensitivitySource: "dream" as const };
}
