/**
 * The VectorIndex used when no Vectorize binding exists (local runs, tests, eval): exact
 * cosine similarity computed in the Worker over the D1 `embeddings` rows of the filter's
 * nodes, so it is always consistent with D1. Vectors are read as hex (D1 hands BLOBs to
 * JavaScript as arrays of numbers, which is slow) and kept in a per-isolate cache by content
 * hash; a scan covers at most `maxScan` nodes (two-stage search narrows large sets first).
 */
import type {
  Candidate,
  EmbeddingModel,
  IndexFilter,
  VectorEntry,
  VectorIndex,
} from "../../domain/retrieval/ports";
import { filterSql } from "./d1-filter";
import { jsonChunks } from "./d1-json-chunks";
import { hexToFloat32 } from "./vector-codec";

/** Decoded vectors kept per isolate, by model key and content hash (bounded by bytes). */
const CACHE_BYTES = 48 * 1024 * 1024;
const cache = new Map<string, Float32Array>();
let cachedBytes = 0;

function remember(key: string, v: Float32Array) {
  if (cache.has(key)) return;
  cache.set(key, v);
  cachedBytes += v.byteLength;
  // Oldest first out (Map keeps insertion order).
  for (const [k, old] of cache) {
    if (cachedBytes <= CACHE_BYTES) break;
    cache.delete(k);
    cachedBytes -= old.byteLength;
  }
}

export class BruteForceVectorIndex implements VectorIndex {
  readonly external = false;
  readonly #db: D1Database;
  readonly #model: EmbeddingModel;
  readonly #maxScan: number;

  constructor(db: D1Database, model: EmbeddingModel, maxScan = 20_000) {
    this.#db = db;
    this.#model = model;
    this.#maxScan = maxScan;
  }

  async query(q: IndexFilter & { embedding: readonly number[]; limit: number }): Promise<Candidate[]> {
    if (q.scopes.length === 0 || q.limit <= 0) return [];
    const f = filterSql(q, 2);
    const { results: nodes } = await this.#db
      .prepare(`SELECT n.node_id, n.content_hash FROM nodes n WHERE ${f.where} LIMIT ?1`)
      .bind(this.#maxScan, ...f.params)
      .all<{ node_id: string; content_hash: string }>();
    const prefix = `${this.#model.id}@${this.#model.version}:`;
    const missing = [...new Set(nodes.map((n) => n.content_hash))].filter((h) => !cache.has(prefix + h));
    for (const chunk of jsonChunks(missing)) {
      const { results } = await this.#db
        .prepare(
          `SELECT content_hash, hex(vector) AS hex FROM embeddings
           WHERE model_id = ?1 AND model_version = ?2 AND content_hash IN (SELECT value FROM json_each(?3))`,
        )
        .bind(this.#model.id, this.#model.version, chunk)
        .all<{ content_hash: string; hex: string }>();
      for (const r of results) remember(prefix + r.content_hash, hexToFloat32(r.hex));
    }
    const query = Float32Array.from(q.embedding);
    const scored: Candidate[] = [];
    for (const n of nodes) {
      const v = cache.get(prefix + n.content_hash);
      if (!v || v.length !== query.length) continue;
      let dot = 0;
      for (let i = 0; i < v.length; i++) dot += (v[i] as number) * (query[i] as number);
      scored.push({ nodeId: n.node_id, score: dot });
    }
    return scored.sort((a, b) => b.score - a.score).slice(0, q.limit);
  }

  /** Vectors live in `embeddings`; nothing to copy. */
  async upsert(_entries: readonly VectorEntry[]): Promise<void> {}

  /** Rows go with their nodes and the embeddings garbage collection. */
  async remove(_nodeIds: readonly string[]): Promise<void> {}
}
