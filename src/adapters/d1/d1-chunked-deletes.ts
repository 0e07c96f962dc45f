/**
 * The deletes a forget is made of, in chunks so that no statement holds a whole chat's or
 * person's rows: messages (the log's triggers take their FTS rows, windows and sender counts),
 * and nodes with their edges, vector sync rows, vectors and the embeddings no other node shares.
 * Each chunk erases its words from the full-text indexes' pages too (d1-fts-erase.ts).
 */
import type { Removed } from "../../domain/knowledge/knowledge-store";
import { erasing, LOG_INDEXES } from "./d1-fts-erase";
import { jsonChunks } from "./d1-json-chunks";

const CHUNK = 500;

/** Removes the vectors and unreferenced embeddings of deleted nodes (knowledge maintenance). */
export type AfterRemoval = (removed: Removed) => Promise<void>;

export type DeletedNodes = {
  total: number;
  byType: Record<string, number>;
  edges: number;
  vectors: number;
  embeddings: number;
};

/**
 * Deletes the messages matching `where` (its one value bound as ?1) in chunks; returns how many.
 * Counted from the selected rows: D1's `changes` also counts what the FTS trigger wrote.
 */
export async function deleteMessages(
  db: D1Database,
  where: "chat_key = ?1" | "account_key = ?1",
  value: string,
): Promise<number> {
  let messages = 0;
  for (;;) {
    const { results } = await db
      .prepare(`SELECT seq FROM messages WHERE ${where} LIMIT ?2`)
      .bind(value, CHUNK)
      .all<{ seq: number }>();
    if (results.length === 0) break;
    const seqs = JSON.stringify(results.map((r) => r.seq));
    await db.batch(
      erasing(db, LOG_INDEXES, [
        db.prepare("DELETE FROM messages WHERE seq IN (SELECT value FROM json_each(?1))").bind(seqs),
      ]),
    );
    messages += results.length;
    if (results.length < CHUNK) break;
  }
  return messages;
}

/** Deletes the nodes matching `where` in chunks, then their edges, vector sync rows, vectors and embeddings. */
export async function deleteNodes(
  db: D1Database,
  where: string,
  binds: string[],
  afterRemoval: AfterRemoval,
): Promise<DeletedNodes> {
  const byType: Record<string, number> = {};
  let edges = 0;
  const nodeIds: string[] = [];
  const hashes = new Set<string>();
  let embeddingsBefore = 0;
  for (;;) {
    const { results } = await db
      .prepare(`SELECT node_id, node_type, content_hash FROM nodes WHERE ${where} LIMIT ${CHUNK}`)
      .bind(...binds)
      .all<{ node_id: string; node_type: string; content_hash: string }>();
    if (results.length === 0) break;
    // Counted before the delete: a memory item's or summary's embedding leaves with its last node
    // (migration 0510), so a count taken after would miss it.
    const unseen = [...new Set(results.map((r) => r.content_hash).filter((h) => !hashes.has(h)))];
    embeddingsBefore += await countEmbeddings(db, unseen);
    for (const r of results) {
      nodeIds.push(r.node_id);
      hashes.add(r.content_hash);
      byType[r.node_type] = (byType[r.node_type] ?? 0) + 1;
    }
    const ids = JSON.stringify(results.map((r) => r.node_id));
    // The first statement turns secure-delete on (d1-fts-erase.ts); the edges' delete is second.
    const [, gone] = await db.batch(
      erasing(
        db,
        ["nodes_fts"],
        [
          db
            .prepare(
              "DELETE FROM edges WHERE src_id IN (SELECT value FROM json_each(?1)) OR dst_id IN (SELECT value FROM json_each(?1))",
            )
            .bind(ids),
          db.prepare("DELETE FROM nodes WHERE node_id IN (SELECT value FROM json_each(?1))").bind(ids),
        ],
      ),
    );
    edges += gone?.meta.changes ?? 0;
  }
  let vectors = 0;
  let embeddings = 0;
  if (nodeIds.length > 0) {
    const hashList = [...hashes];
    for (const chunk of jsonChunks(nodeIds)) {
      const r = await db
        .prepare("DELETE FROM vector_sync WHERE node_id IN (SELECT value FROM json_each(?1))")
        .bind(chunk)
        .run();
      vectors += r.meta.changes ?? 0;
    }
    await afterRemoval({ nodeIds, hashes: hashList });
    embeddings = embeddingsBefore - (await countEmbeddings(db, hashList));
  }
  return { total: nodeIds.length, byType, edges, vectors, embeddings };
}

async function countEmbeddings(db: D1Database, hashes: readonly string[]): Promise<number> {
  let n = 0;
  for (const chunk of jsonChunks(hashes)) {
    const row = await db
      .prepare("SELECT count(*) AS n FROM embeddings WHERE content_hash IN (SELECT value FROM json_each(?1))")
      .bind(chunk)
      .first<{ n: number }>();
    n += row?.n ?? 0;
  }
  return n;
}

/**
 * One node erased, not only hidden — its row with FTS5 secure-delete around it, and its edges:
 * an admin's forget of one memory item or summary, in the caller's batch.
 */
export function nodeErasure(
  db: D1Database,
  nodeId: string,
  nodeType: "memory" | "summary",
): D1PreparedStatement[] {
  return [
    ...erasing(
      db,
      ["nodes_fts"],
      [db.prepare("DELETE FROM nodes WHERE node_id = ?1 AND node_type = ?2").bind(nodeId, nodeType)],
    ),
    db.prepare("DELETE FROM edges WHERE src_id = ?1 OR dst_id = ?1").bind(nodeId),
  ];
}
