/**
 * The model's archive requests of a dreaming run (docs/memory.md#dreaming): honoured only for
 * items of scopes the chat may write, recorded either way.
 */

import { type Decisions, unscoped, withheld } from "./dream-decisions";
import type { Extraction } from "./dream-extraction";
import { includesScope, type Scope } from "./scope";

/** Step 2b: the model's archive requests, honoured only for items of scopes this chat may write. */
export function decideArchives(
  input: { readonly session: string },
  archiveRequests: Extraction["archiveRequests"],
  writable: readonly Scope[],
  d: Decisions,
): void {
  const { existingById, consumed, archive, record } = d;
  for (const request of archiveRequests) {
    const target = existingById.get(request.id);
    // The id and the reason are the model's words, and both are recorded (an unknown id as
    // written): they pass the credential check like a candidate's text.
    const requested = { id: withheld(request.id), reason: withheld(request.reason) };
    if (!target || !includesScope(writable, target.scope) || consumed.has(target.nodeId)) {
      record({
        kind: target?.kind ?? "unknown",
        text: target?.text ?? "",
        importance: null,
        ...unscoped(input.session),
        decision: "rejected",
        reason: `archive of ${requested.id} refused: not an item of a scope this chat may write`,
        nodeId: null,
        targetNodeId: requested.id,
        evidence: { requestedReason: requested.reason },
      });
      continue;
    }
    consumed.add(target.nodeId);
    archive.push(target.nodeId);
    record({
      kind: target.kind,
      text: target.text,
      importance: target.importance,
      scope: target.scope,
      sensitivity: target.sensitivity,
      sensitivitySource: target.sensitivitySource,
      decision: "archive",
      reason: requested.reason || "archived by dreaming",
      nodeId: null,
      targetNodeId: target.nodeId,
      evidence: {},
    });
  }
}
