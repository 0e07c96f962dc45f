/**
 * Where a dreaming candidate goes (docs/memory.md#dreaming): kind → scope → sensitivity, and the
 * levels its source turn may read there.
 */

import { levelsOf } from "../retrieval/read-gate";
import type { Candidate } from "./dream-extraction";
import { evidenceOf, type MarkedTurn, speakerOfTurn, type TurnRun } from "./dream-turn";
import { type MemoryEvidence, normalizeMemoryText, type Sensitivity } from "./memory";
import { originSensitivity, sharedStatement } from "./origin";
import { type Scope, scopeForKind, turnScopes } from "./scope";
import { dreamSensitivity, explicitSensitivity } from "./sensitivity";

/** A candidate with its source turn, placed: its tag, its scope and the levels read there. */
export type Placed = {
  readonly evidence: MemoryEvidence;
  readonly tag: ReturnType<typeof originSensitivity>;
  readonly scope: Scope;
  readonly levels: readonly Sensitivity[];
  readonly key: string;
  /** When the source turn was said: the event time of what it states. */
  readonly said: number;
};

/** The candidate's tag (its words, its turn's and the model's hint), scope and readable levels. */
export function placeCandidate(
  input: TurnRun,
  c: Candidate,
  source: MarkedTurn,
  privateChat: boolean,
  /** The most private request of the run, when what is cited may come from another turn. */
  runRequest: Sensitivity | null = null,
): Placed {
  // In a private chat at least private (origin.ts), whatever the turn's words or the model's hint.
  const tag = originSensitivity({
    session: input.session,
    explicit: source.explicitSensitivity ?? explicitSensitivity(source.text),
    automatic: [
      dreamSensitivity(c.text, { privateChat }),
      dreamSensitivity(source.text, { privateChat }),
      c.hint ?? "public",
      runRequest ?? "public",
      source.floor ?? "public",
    ],
    // The person's permission covers what that turn said, not what the extractor attributes to it.
    shared: sharedStatement(source.text, c.text, speakerOfTurn(source).name),
  });
  const scopeInput = { session: input.session, identity: source.identity };
  const scope = scopeForKind(c.kind, scopeInput, tag.sensitivity);
  // Only items the source turn may read count as known: never deduplicates against, nor
  // supersedes, an item that turn could not see.
  const levels = levelsOf(turnScopes(scopeInput).readable, scope);
  const key = `${scope.type}:${scope.id}|${normalizeMemoryText(c.text)}`;
  return { evidence: evidenceOf(input, source), tag, scope, levels, key, said: source.ts };
}

/** The scope and tag a placed candidate is recorded with. */
export const scopedOf = (p: Placed) => ({
  scope: p.scope,
  sensitivity: p.tag.sensitivity,
  sensitivitySource: p.tag.source,
});
