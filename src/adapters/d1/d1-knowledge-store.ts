/** KnowledgeStore over D1: collections in kb_collections, documents as rows of `nodes`. */
import type { CollectionInfo, CollectionSpec, StoredDocument } from "../../domain/knowledge/collection";
import type { DocumentPlan } from "../../domain/knowledge/document-plan";
import type { KnowledgeStore, Removed } from "../../domain/knowledge/knowledge-store";
import { jsonChunks } from "./d1-json-chunks";
import { insertEdgesStatements, insertNodesStatements } from "./d1-node-writes";

/** Rows per chunk of a large delete (D1 wants big deletes split; FTS triggers run per row). */
const DELETE_CHUNK = 500;

type CollectionRow = {
  name: string;
  title: string | null;
  description: string | null;
  chunk_size: number;
  chunk_overlap: number;
  created_at: number;
  updated_at: number;
  documents: number;
  passages: number;
};

type DocumentRow = {
  node_id: string;
  source_id: string;
  title: string | null;
  source_hash: string | null;
  format: string | null;
  passages: number;
  updated_at: number;
};

/** Counts from kb_counts (migration 0210), kept by triggers: no pass over the collection's rows. */
const COLLECTION_SELECT = `SELECT c.*,
  (SELECT coalesce(sum(k.nodes), 0) FROM kb_counts k WHERE k.scope_id = c.name AND k.node_type = 'document') AS documents,
  (SELECT coalesce(sum(k.nodes), 0) FROM kb_counts k WHERE k.scope_id = c.name AND k.node_type = 'passage') AS passages
  FROM kb_collections c`;

const DOCUMENT_SELECT = `SELECT d.node_id, d.source_id, d.title, d.updated_at,
  json_extract(d.metadata, '$.source_hash') AS source_hash, json_extract(d.metadata, '$.format') AS format,
  (SELECT count(*) FROM nodes p WHERE p.root_id = d.node_id AND p.node_type = 'passage') AS passages
  FROM nodes d WHERE d.scope_type = 'collection' AND d.scope_id = ?1 AND d.node_type = 'document' AND d.status = 'active'`;

function toCollection(r: CollectionRow): CollectionInfo {
  return {
    name: r.name,
    title: r.title,
    description: r.description,
    chunkSize: r.chunk_size,
    chunkOverlap: r.chunk_overlap,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    documents: r.documents,
    passages: r.passages,
  };
}

function toDocument(r: DocumentRow): StoredDocument {
  return {
    documentId: r.node_id,
    sourceId: r.source_id,
    title: r.title,
    sourceHash: r.source_hash,
    format: r.format,
    passages: r.passages,
    updatedAt: r.updated_at,
  };
}

export class D1KnowledgeStore implements KnowledgeStore {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  async createCollection(spec: CollectionSpec, now: number): Promise<boolean> {
    const result = await this.#db
      .prepare(
        `INSERT INTO kb_collections (name, title, description, chunk_size, chunk_overlap, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6) ON CONFLICT (name) DO NOTHING`,
      )
      .bind(spec.name, spec.title, spec.description, spec.chunkSize, spec.chunkOverlap, now)
      .run();
    return (result.meta.changes ?? 0) > 0;
  }

  async getCollection(name: string): Promise<CollectionInfo | null> {
    const row = await this.#db
      .prepare(`${COLLECTION_SELECT} WHERE c.name = ?1`)
      .bind(name)
      .first<CollectionRow>();
    return row ? toCollection(row) : null;
  }

  async listCollections(): Promise<CollectionInfo[]> {
    const { results } = await this.#db.prepare(`${COLLECTION_SELECT} ORDER BY c.name`).all<CollectionRow>();
    return results.map(toCollection);
  }

  async findDocument(collection: string, sourceId: string): Promise<StoredDocument | null> {
    const row = await this.#db
      .prepare(`${DOCUMENT_SELECT} AND d.source_id = ?2 LIMIT 1`)
      .bind(collection, sourceId)
      .first<DocumentRow>();
    return row ? toDocument(row) : null;
  }

  async listDocuments(collection: string): Promise<StoredDocument[]> {
    const { results } = await this.#db
      .prepare(`${DOCUMENT_SELECT} ORDER BY d.source_id`)
      .bind(collection)
      .all<DocumentRow>();
    return results.map(toDocument);
  }

  async replaceDocument(
    collection: string,
    sourceId: string,
    plan: DocumentPlan,
    now: number,
  ): Promise<Removed> {
    const old = await this.#sourceNodes(collection, sourceId);
    const statements = [
      this.#db
        .prepare("DELETE FROM nodes WHERE scope_type = 'collection' AND scope_id = ?1 AND source_id = ?2")
        .bind(collection, sourceId),
      ...insertNodesStatements(this.#db, plan.nodes, now),
      ...insertEdgesStatements(this.#db, plan.edges, now),
      this.#db.prepare("UPDATE kb_collections SET updated_at = ?2 WHERE name = ?1").bind(collection, now),
    ];
    // One batch is one transaction: the old version and the new one are never both visible.
    await this.#db.batch(statements);
    const kept = new Set(plan.nodes.map((n) => n.nodeId));
    const gone = old.filter((o) => !kept.has(o.node_id));
    return { nodeIds: gone.map((o) => o.node_id), hashes: [...new Set(gone.map((o) => o.content_hash))] };
  }

  async deleteDocument(collection: string, sourceId: string): Promise<Removed | null> {
    const old = await this.#sourceNodes(collection, sourceId);
    if (old.length === 0) return null;
    await this.#db.batch([
      this.#db
        .prepare("DELETE FROM nodes WHERE scope_type = 'collection' AND scope_id = ?1 AND source_id = ?2")
        .bind(collection, sourceId),
      this.#db
        .prepare("UPDATE kb_collections SET updated_at = ?2 WHERE name = ?1")
        .bind(collection, Date.now()),
    ]);
    return { nodeIds: old.map((o) => o.node_id), hashes: [...new Set(old.map((o) => o.content_hash))] };
  }

  async deleteCollection(name: string): Promise<Removed | null> {
    const exists = await this.#db
      .prepare("SELECT name FROM kb_collections WHERE name = ?1")
      .bind(name)
      .first();
    if (!exists) return null;
    const nodeIds: string[] = [];
    const hashes = new Set<string>();
    for (;;) {
      const { results } = await this.#db
        .prepare(
          "SELECT node_id, content_hash FROM nodes WHERE scope_type = 'collection' AND scope_id = ?1 LIMIT ?2",
        )
        .bind(name, DELETE_CHUNK)
        .all<{ node_id: string; content_hash: string }>();
      if (results.length === 0) break;
      for (const r of results) {
        nodeIds.push(r.node_id);
        hashes.add(r.content_hash);
      }
      const [ids] = jsonChunks(results.map((r) => r.node_id));
      await this.#db
        .prepare("DELETE FROM nodes WHERE node_id IN (SELECT value FROM json_each(?1))")
        .bind(ids)
        .run();
    }
    await this.#db.prepare("DELETE FROM kb_collections WHERE name = ?1").bind(name).run();
    return { nodeIds, hashes: [...hashes] };
  }

  async #sourceNodes(collection: string, sourceId: string) {
    const { results } = await this.#db
      .prepare(
        "SELECT node_id, content_hash FROM nodes WHERE scope_type = 'collection' AND scope_id = ?1 AND source_id = ?2",
      )
      .bind(collection, sourceId)
      .all<{ node_id: string; content_hash: string }>();
    return results;
  }
}
