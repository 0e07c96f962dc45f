/**
 * The INSERT statements of a memory commit: a memory item, a summary, the run's row and the
 * candidates' audit rows. Every node insert is dropped by the storage-off trigger (migration
 * 0100) and ignored for an existing id.
 */

import type { NewMemory } from "../../domain/memory/memory";
import type { CandidateRecord, MemoryCommit, SummaryNode } from "../../domain/memory/memory-store";
import { indexText } from "../../domain/text/search-tokens";
import { memoryContentHash } from "./memory-content-hash";

const SOURCE_TYPE = { dream: "conversation", explicit: "human", tool: "tool" } as const;

export async function insertMemoryStatement(
  db: D1Database,
  item: NewMemory,
  at: number,
): Promise<D1PreparedStatement> {
  const origin = item.evidence?.origin ?? "dream";
  return db
    .prepare(
      `INSERT INTO nodes (node_id, node_type, source_type, source_id, scope_type, scope_id, kind, title, raw_text,
           retrieval_text, retrieval_tokens, metadata, provenance, importance, confidence, sensitivity,
           sensitivity_source, portable, status, content_hash, created_at, updated_at, valid_from)
         VALUES (?, 'memory', ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?)
         ON CONFLICT (node_id) DO NOTHING`,
    )
    .bind(
      item.nodeId,
      SOURCE_TYPE[origin],
      item.evidence?.session ?? null,
      item.scope.type,
      item.scope.id,
      item.kind,
      item.text,
      item.text,
      indexText(item.text),
      JSON.stringify({ subjectKey: item.subjectKey, portable: item.portable }),
      JSON.stringify(item.evidence ? { type: "conversation", ...item.evidence } : {}),
      item.importance,
      item.confidence,
      item.sensitivity,
      item.sensitivitySource,
      item.portable ? 1 : 0,
      await memoryContentHash(item.text),
      at,
      at,
      item.validFrom ?? at,
    );
}

export async function summaryStatement(
  db: D1Database,
  s: SummaryNode,
  at: number,
): Promise<D1PreparedStatement> {
  return db
    .prepare(
      `INSERT INTO nodes (node_id, node_type, source_type, source_id, scope_type, scope_id, kind, title, raw_text,
           retrieval_text, retrieval_tokens, metadata, provenance, importance, confidence, sensitivity,
           sensitivity_source, portable, status, content_hash, created_at, updated_at)
         VALUES (?, 'summary', 'conversation', ?, ?, ?, 'summary', NULL, ?, ?, ?, '{}', ?, 0.5, 0.8, ?, ?, 0, 'active', ?, ?, ?)
         ON CONFLICT (node_id) DO NOTHING`,
    )
    .bind(
      s.nodeId,
      s.evidence.session,
      s.scope.type,
      s.scope.id,
      s.text,
      s.text,
      indexText(s.text),
      JSON.stringify(s.evidence),
      s.sensitivity,
      s.sensitivitySource,
      await memoryContentHash(s.text),
      at,
      at,
    );
}

/** The run's row in memory_runs: its primary key makes a second commit of the run fail. */
export function runStatement(
  db: D1Database,
  c: MemoryCommit,
  run: NonNullable<MemoryCommit["run"]>,
  inserted: number,
): D1PreparedStatement {
  return db
    .prepare(
      "INSERT INTO memory_runs (run_id, chat_key, kind, turns, inserted, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(c.runId, c.chatKey, run.kind, run.turns, inserted, c.at);
}

export function candidateStatement(db: D1Database, r: CandidateRecord, at: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO memory_candidates (run_id, chat_key, origin, kind, text, scope_type, scope_id, sensitivity,
           sensitivity_source, importance, decision, reason, node_id, target_node_id, evidence, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      r.runId,
      r.chatKey,
      r.origin,
      r.kind,
      r.text,
      r.scope.type,
      r.scope.id,
      r.sensitivity,
      r.sensitivitySource,
      r.importance,
      r.decision,
      r.reason,
      r.nodeId,
      r.targetNodeId,
      JSON.stringify(r.evidence),
      at,
    );
}
