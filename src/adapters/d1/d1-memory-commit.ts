/**
 * A memory commit as one D1 batch (D1MemoryStore.commit): every statement in order, each
 * tagged with what its change count means in the report.
 */

import type { MemoryItem } from "../../domain/memory/memory";
import type { MemoryCommit } from "../../domain/memory/memory-store";
import { includesScope } from "../../domain/memory/scope";
import { gateEntries } from "../../domain/retrieval/read-gate";
import { erasing } from "./d1-fts-erase";
import { reinforceStatement } from "./d1-memory-decay";
import {
  candidateStatement,
  insertMemoryStatement,
  runStatement,
  summaryStatement,
} from "./d1-memory-inserts";
import {
  closeStatement,
  eraseStatements,
  statusStatement,
  supersedesEdge,
  updateStatement,
} from "./d1-memory-updates";
import { gateCondition } from "./d1-read-gate";

/** What a commit statement's change count means in the report. */
export type StatementKind =
  | "run"
  | "insert"
  | "supersede"
  | "edge"
  | "archive"
  | "erase"
  | "update"
  | "other";

/**
 * Every statement of a commit, in order, each tagged with what its change count means.
 * `load` reads the restated items (by id), which are reinforced when still writable.
 */
export async function commitStatements(
  db: D1Database,
  c: MemoryCommit,
  load: (nodeIds: readonly string[]) => Promise<MemoryItem[]>,
): Promise<{ statements: D1PreparedStatement[]; kinds: StatementKind[] }> {
  const writable = gateCondition(gateEntries(c.writable), "nodes");
  // An insert, like every status change, lands only in a scope the commit may write.
  const inserts = c.inserts.filter((item) => includesScope(c.writable, item.scope));
  const statements: D1PreparedStatement[] = [];
  const kinds: StatementKind[] = [];
  const add = (kind: StatementKind, s: D1PreparedStatement) => {
    statements.push(s);
    kinds.push(kind);
  };
  if (c.run) add("run", runStatement(db, c, c.run, inserts.length));
  for (const item of inserts) add("insert", await insertMemoryStatement(db, item, c.at));
  if (c.summary) add("other", await summaryStatement(db, c.summary, c.at));
  for (const { oldId, newId, validTo } of c.supersede) {
    add("supersede", closeStatement(db, oldId, newId, validTo ?? c.at, c.at, writable));
    add("edge", supersedesEdge(db, oldId, newId, c.at));
  }
  for (const id of c.archive) add("archive", statusStatement(db, "archived", id, c.at, writable));
  if (c.erase?.length) {
    // The item's delete counts as the erase; the index's switches and the copies' deletes do not.
    const perItem = c.erase.map((id) => eraseStatements(db, id, writable));
    const rows = new Set(perItem.map(([row]) => row));
    for (const s of erasing(db, ["nodes_fts"], perItem.flat())) add(rows.has(s) ? "erase" : "other", s);
  }
  for (const u of c.updates) {
    const update = updateStatement(db, u, c, writable);
    if (update) add("update", update);
  }
  for (const r of c.candidates) add("other", candidateStatement(db, r, c.at));
  if (c.restated?.length) {
    const ids = (await load(c.restated)).filter((m) => includesScope(c.writable, m.scope));
    const restated = ids.map((m) => m.nodeId);
    if (restated.length > 0)
      add("other", reinforceStatement(db, restated, { kind: "restated", key: c.runId }, c.at));
  }
  return { statements, kinds };
}
