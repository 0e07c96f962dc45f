/**
 * What a read of memory items selects from `nodes` (alias `n`), and how its row becomes a
 * MemoryItem: metadata and provenance are JSON, read leniently (a malformed value reads as
 * empty, never as an error).
 */

import type { MemoryEvidence, MemoryItem, MemorySource } from "../../domain/memory/memory";
import type { MemorySearchQuery } from "../../domain/memory/memory-store";
import { isMemoryKind, type ScopeType } from "../../domain/memory/scope";
import { DECAY_COLUMNS, type DecayRow, decayOf } from "./d1-memory-decay";

export const MEMORY_COLUMNS = `n.node_id, n.scope_type, n.scope_id, n.kind, n.raw_text, n.importance, n.confidence,
  n.sensitivity, n.sensitivity_source, n.portable, n.status, n.metadata, n.provenance, n.created_at, n.updated_at,
  n.valid_from, n.valid_to, n.closed_by, ${DECAY_COLUMNS}`;

export type MemoryRow = {
  node_id: string;
  scope_type: ScopeType;
  scope_id: string;
  kind: string | null;
  raw_text: string;
  importance: number;
  confidence: number;
  sensitivity: MemoryItem["sensitivity"];
  sensitivity_source: MemoryItem["sensitivitySource"];
  portable: number;
  status: MemoryItem["status"];
  metadata: string;
  provenance: string;
  created_at: number;
  updated_at: number;
  valid_from: number | null;
  valid_to: number | null;
  closed_by: string | null;
} & DecayRow;

/** Which statuses a search reads: current items, or for a question about the past closed ones too. */
export const memoryStatusSql = (q: Pick<MemorySearchQuery, "closed">) =>
  q.closed ? "n.status IN ('active', 'superseded')" : "n.status = 'active'";

function parseJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The statements merged into an item, as its provenance recorded them (merge.ts). */
function sourcesOf(raw: readonly unknown[]): MemorySource[] {
  return raw.flatMap((x) => {
    if (typeof x !== "object" || x === null) return [];
    const o = x as Record<string, unknown>;
    if (typeof o.session !== "string" || typeof o.runId !== "string") return [];
    const origin = o.origin === "explicit" || o.origin === "tool" ? o.origin : "dream";
    return [
      {
        session: o.session,
        runId: o.runId,
        origin,
        account: typeof o.account === "string" ? o.account : null,
      },
    ];
  });
}

export function toMemoryItem(r: MemoryRow): MemoryItem {
  const meta = parseJson(r.metadata);
  const prov = parseJson(r.provenance);
  const evidence: MemoryEvidence | null =
    typeof prov.session === "string"
      ? {
          session: prov.session,
          messageIds: Array.isArray(prov.messageIds)
            ? prov.messageIds.filter((m): m is string => typeof m === "string")
            : [],
          account: typeof prov.account === "string" ? prov.account : null,
          person: typeof prov.person === "string" ? prov.person : null,
          origin: prov.origin === "explicit" || prov.origin === "tool" ? prov.origin : "dream",
          runId: typeof prov.runId === "string" ? prov.runId : "",
          ...(Array.isArray(prov.sources) ? { sources: sourcesOf(prov.sources) } : {}),
        }
      : null;
  return {
    nodeId: r.node_id,
    scope: { type: r.scope_type, id: r.scope_id },
    kind: isMemoryKind(r.kind) ? r.kind : "fact",
    text: r.raw_text,
    importance: r.importance,
    confidence: r.confidence,
    sensitivity: r.sensitivity,
    sensitivitySource: r.sensitivity_source,
    portable: r.portable === 1,
    status: r.status,
    subjectKey: typeof meta.subjectKey === "string" ? meta.subjectKey : null,
    evidence,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    validFrom: r.valid_from ?? r.created_at,
    validTo: r.valid_to,
    closedBy: r.closed_by,
    decay: decayOf(r),
  };
}
