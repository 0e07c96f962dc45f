/** The knowledge base's storage port (D1 adapter: src/adapters/d1/d1-knowledge-store.ts). */
import type { CollectionInfo, CollectionSpec, StoredDocument } from "./collection";
import type { DocumentPlan } from "./document-plan";

/** What a removal took away: vectors are deleted by node id, embeddings by unreferenced hash. */
export type Removed = { readonly nodeIds: readonly string[]; readonly hashes: readonly string[] };

export interface KnowledgeStore {
  /** Creates the collection; false when one of that name exists (left unchanged). */
  createCollection(spec: CollectionSpec, now: number): Promise<boolean>;
  getCollection(name: string): Promise<CollectionInfo | null>;
  /** Every collection with its document and passage counts, by name. */
  listCollections(): Promise<CollectionInfo[]>;
  /** The active document of this source in the collection, if any. */
  findDocument(collection: string, sourceId: string): Promise<StoredDocument | null>;
  listDocuments(collection: string): Promise<StoredDocument[]>;
  /**
   * Replaces every node of this source in the collection by the plan in one transaction:
   * readers see the old version or the new one, never a mix or neither.
   */
  replaceDocument(collection: string, sourceId: string, plan: DocumentPlan, now: number): Promise<Removed>;
  /** Removes one document's nodes (and their FTS rows and edges); null when it does not exist. */
  deleteDocument(collection: string, sourceId: string): Promise<Removed | null>;
  /**
   * Removes a collection, its nodes, FTS rows and edges, in chunks (large deletes must be);
   * the collection row goes last, so an interrupted delete can be run again. Null when unknown.
   */
  deleteCollection(name: string): Promise<Removed | null>;
}
