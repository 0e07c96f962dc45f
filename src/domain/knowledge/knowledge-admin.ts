/**
 * The knowledge base as an admin manages it from a chat (`kb_manage`): what exists, and
 * removals that take everything derived from the removed nodes with them. The composition
 * root builds it over the same removal path as the admin HTTP API.
 */
import type { CollectionInfo, StoredDocument } from "./collection";

/** What a removal took away: every node (document, sections, passages) of what was named. */
export type RemovedCount = { readonly nodes: number };

export interface KnowledgeAdmin {
  /** Every collection with its document and passage counts, by name. */
  listCollections(): Promise<CollectionInfo[]>;
  getCollection(name: string): Promise<CollectionInfo | null>;
  /** The active documents of a collection ([] for an unknown one: ask getCollection first). */
  listDocuments(collection: string): Promise<StoredDocument[]>;
  findDocument(collection: string, source: string): Promise<StoredDocument | null>;
  /**
   * Removes one document: its nodes, FTS rows and edges, its vectors in external indexes and
   * the embeddings no other node uses. Null (and nothing changed) when it does not exist.
   */
  deleteDocument(collection: string, source: string): Promise<RemovedCount | null>;
  /** Removes a collection and all it holds, as `deleteDocument` does; null when unknown. */
  deleteCollection(name: string): Promise<RemovedCount | null>;
}
