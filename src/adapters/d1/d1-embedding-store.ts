/** EmbeddingStore over the D1 `embeddings` table (a cache keyed by content hash) and `vector_sync`. */
import { EMBEDDED_NODE_TYPES, type EmbeddingStore } from "../../domain/retrieval/embedding-cache";
import { type EmbeddingModel, modelKey, type VectorEntry } from "../../domain/retrieval/ports";
import { jsonChunks } from "./d1-json-chunks";
import { hexToFloat32, vectorToHex } from "./vector-codec";

const TYPES = JSON.stringify(EMBEDDED_NODE_TYPES);
/** Rows one statement of a retirement deletes, so no single write holds D1 for long. */
const DROP_CHUNK = 2000;

export class D1EmbeddingStore implements EmbeddingStore {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  async missing(model: EmbeddingModel, limit: number) {
    const { results } = await this.#db
      .prepare(
        `SELECT n.content_hash AS hash, min(n.retrieval_text) AS text FROM nodes n
         WHERE n.status = 'active' AND n.node_type IN (SELECT value FROM json_each(?3))
           AND NOT EXISTS (SELECT 1 FROM embeddings e
                           WHERE e.model_id = ?1 AND e.model_version = ?2 AND e.content_hash = n.content_hash)
         GROUP BY n.content_hash LIMIT ?4`,
      )
      .bind(model.id, model.version, TYPES, limit)
      .all<{ hash: string; text: string }>();
    return results;
  }

  async put(
    model: EmbeddingModel,
    rows: readonly { hash: string; vector: readonly number[] }[],
    now: number,
  ) {
    const statements = jsonChunks(rows.map((r) => [r.hash, r.vector.length, vectorToHex(r.vector)])).map(
      (chunk) =>
        this.#db
          .prepare(
            `INSERT OR IGNORE INTO embeddings (model_id, model_version, content_hash, dims, vector, created_at)
           SELECT ?1, ?2, value ->> '$[0]', value ->> '$[1]', unhex(value ->> '$[2]'), ?4 FROM json_each(?3)`,
          )
          .bind(model.id, model.version, chunk, now),
    );
    if (statements.length > 0) await this.#db.batch(statements);
  }

  async collectGarbage(hashes: readonly string[]) {
    let deleted = 0;
    for (const chunk of jsonChunks([...new Set(hashes)])) {
      const result = await this.#db
        .prepare(
          `DELETE FROM embeddings WHERE content_hash IN (SELECT value FROM json_each(?1))
             AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.content_hash = embeddings.content_hash)`,
        )
        .bind(chunk)
        .run();
      deleted += result.meta.changes ?? 0;
    }
    return deleted;
  }

  async unsynced(model: EmbeddingModel, limit: number): Promise<VectorEntry[]> {
    const { results } = await this.#db
      .prepare(
        `SELECT n.node_id, n.content_hash, n.scope_type, n.scope_id, n.collection, n.node_type, n.sensitivity,
                n.portable, hex(e.vector) AS vector
         FROM nodes n
         JOIN embeddings e ON e.model_id = ?1 AND e.model_version = ?2 AND e.content_hash = n.content_hash
         LEFT JOIN vector_sync v ON v.model_key = ?3 AND v.node_id = n.node_id
         WHERE n.status = 'active' AND n.node_type IN (SELECT value FROM json_each(?4))
           AND (v.node_id IS NULL OR v.content_hash != n.content_hash)
         LIMIT ?5`,
      )
      .bind(model.id, model.version, modelKey(model), TYPES, limit)
      .all<{
        node_id: string;
        content_hash: string;
        scope_type: string;
        scope_id: string;
        collection: string | null;
        node_type: string;
        sensitivity: string;
        portable: number;
        vector: string;
      }>();
    return results.map((r) => ({
      nodeId: r.node_id,
      contentHash: r.content_hash,
      vector: Array.from(hexToFloat32(r.vector)),
      metadata: {
        scope_type: r.scope_type,
        scope_id: r.scope_id,
        collection: r.collection ?? "",
        node_type: r.node_type,
        sensitivity: r.sensitivity,
        portable: r.portable !== 0,
      },
    }));
  }

  async markSynced(model: EmbeddingModel, entries: readonly VectorEntry[], now: number) {
    const statements = jsonChunks(entries.map((e) => [e.nodeId, e.contentHash])).map((chunk) =>
      this.#db
        .prepare(
          `INSERT OR REPLACE INTO vector_sync (model_key, node_id, content_hash, synced_at)
           SELECT ?1, value ->> '$[0]', value ->> '$[1]', ?3 FROM json_each(?2)`,
        )
        .bind(modelKey(model), chunk, now),
    );
    if (statements.length > 0) await this.#db.batch(statements);
  }

  async stale(model: EmbeddingModel, limit: number) {
    const { results } = await this.#db
      .prepare(
        `SELECT v.node_id FROM vector_sync v LEFT JOIN nodes n ON n.node_id = v.node_id
         WHERE v.model_key = ?1 AND (n.node_id IS NULL OR n.status != 'active') LIMIT ?2`,
      )
      .bind(modelKey(model), limit)
      .all<{ node_id: string }>();
    return results.map((r) => r.node_id);
  }

  async forgetSynced(model: EmbeddingModel, nodeIds: readonly string[]) {
    for (const chunk of jsonChunks(nodeIds)) {
      await this.#db
        .prepare(
          "DELETE FROM vector_sync WHERE model_key = ?1 AND node_id IN (SELECT value FROM json_each(?2))",
        )
        .bind(modelKey(model), chunk)
        .run();
    }
  }

  async forgetAll(model: EmbeddingModel) {
    await this.#db.prepare("DELETE FROM vector_sync WHERE model_key = ?1").bind(modelKey(model)).run();
  }

  /**
   * The stored vectors of these nodes for `model`, by node id, read by their content hash; a node
   * not embedded yet is absent. Reads only the ids it is given: the caller's gated listing
   * decides which (docs/memory.md#write-time-merge).
   */
  async vectorsOfNodes(model: EmbeddingModel, nodeIds: readonly string[]) {
    const out = new Map<string, readonly number[]>();
    for (const chunk of jsonChunks([...new Set(nodeIds)])) {
      const { results } = await this.#db
        .prepare(
          `SELECT n.node_id AS id, hex(e.vector) AS hex FROM nodes n
           JOIN embeddings e ON e.model_id = ?1 AND e.model_version = ?2 AND e.content_hash = n.content_hash
           WHERE n.node_id IN (SELECT value FROM json_each(?3)) AND e.dims = ?4`,
        )
        .bind(model.id, model.version, chunk, model.dims)
        .all<{ id: string; hex: string }>();
      for (const r of results) out.set(r.id, Array.from(hexToFloat32(r.hex)));
    }
    return out;
  }

  async status(model: EmbeddingModel) {
    const row = await this.#db
      .prepare(
        `SELECT
           (SELECT count(*) FROM embeddings WHERE model_id = ?1 AND model_version = ?2) AS embedded,
           (SELECT count(DISTINCT n.content_hash) FROM nodes n
              WHERE n.status = 'active' AND n.node_type IN (SELECT value FROM json_each(?4))
                AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model_id = ?1 AND e.model_version = ?2
                                AND e.content_hash = n.content_hash)) AS missing,
           (SELECT count(*) FROM vector_sync WHERE model_key = ?3) AS synced`,
      )
      .bind(model.id, model.version, modelKey(model), TYPES)
      .first<{ embedded: number; missing: number; synced: number }>();
    return row ?? { embedded: 0, missing: 0, synced: 0 };
  }

  async versions() {
    const { results } = await this.#db
      .prepare(
        `SELECT model_id AS id, model_version AS version, count(*) AS vectors FROM embeddings
         GROUP BY model_id, model_version ORDER BY model_id, model_version`,
      )
      .all<{ id: string; version: string; vectors: number }>();
    return results;
  }

  async dropVersion(model: Pick<EmbeddingModel, "id" | "version">) {
    let deleted = 0;
    for (;;) {
      const r = await this.#db
        .prepare(
          `DELETE FROM embeddings WHERE rowid IN (SELECT rowid FROM embeddings
             WHERE model_id = ?1 AND model_version = ?2 LIMIT ?3)`,
        )
        .bind(model.id, model.version, DROP_CHUNK)
        .run();
      const changes = r.meta.changes ?? 0;
      deleted += changes;
      if (changes < DROP_CHUNK) break;
    }
    await this.#db
      .prepare("DELETE FROM vector_sync WHERE model_key = ?1")
      .bind(modelKey({ ...model, dims: 0 }))
      .run();
    return deleted;
  }
}
