/**
 * The knowledge base and its embeddings cache as admins manage them: collections, imports,
 * removals (each audited with the acting admin), search with the follow-up rewrite, the node
 * tree, and the embeddings status and rebuild. The HTTP details (multipart, size caps) stay in
 * the route; everything else the API and the Knowledge page do is here.
 */
import type { SettingsSource } from "../../domain/config/settings-source";
import { type DomainError, ok, type Result } from "../../domain/kernel/result";
import { validateCollectionName } from "../../domain/knowledge/collection";
import type { SourceFile } from "../../domain/knowledge/document";
import { importFiles } from "../../domain/knowledge/import-documents";
import {
  profileOptions,
  type ReadMode,
  readContext,
  searchKnowledge,
} from "../../domain/knowledge/knowledge-search";
import { visibleText, withoutFormatCharacters } from "../../domain/text/visible-text";
import type { AdminRequest } from "./admin-request";
import { apiSearchQuery } from "./api-query-rewrite";
import { type KnowledgeContext, knowledgeContext } from "./knowledge-context";
import { knowledgeEmbeddings } from "./knowledge-embeddings";

export type { CollectionInfo, StoredDocument } from "../../domain/knowledge/collection";
export type { ContextNode } from "../../domain/retrieval/context-node";

export type NewCollection = {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly chunkSize?: number | undefined;
  readonly chunkOverlap?: number | undefined;
};

export type KnowledgeQuery = {
  readonly query: string;
  readonly collections?: readonly string[] | undefined;
  readonly limit?: number | undefined;
  /** Earlier user turns of the conversation, oldest first: a follow-up query is searched after them. */
  readonly turns?: readonly string[] | undefined;
};

export function knowledgeService(env: Env, who: AdminRequest, source: SettingsSource) {
  const context = knowledgeContext(env, who, source);
  return { ...collections(context), ...reads(context), ...knowledgeEmbeddings(context) };
}

/** Collections and documents: listing, creating, importing and removing, each change audited. */
function collections({ audit, open }: KnowledgeContext) {
  return {
    collections: async () => (await open()).kb.store.listCollections(),

    async createCollection(body: NewCollection) {
      const name = validateCollectionName(body.name);
      if (!name.ok) return name;
      const { settings, kb } = await open();
      const chunkSize = body.chunkSize ?? settings.knowledge.chunkSize;
      const created = await kb.store.createCollection(
        {
          name: name.value,
          // Titles are stored as they are seen (domain/text/visible-text.ts).
          title: body.title === undefined ? null : visibleText(body.title) || null,
          description:
            body.description === undefined ? null : withoutFormatCharacters(body.description) || null,
          chunkSize,
          chunkOverlap: Math.min(
            body.chunkOverlap ?? settings.knowledge.chunkOverlap,
            Math.floor(chunkSize / 4),
          ),
        },
        Date.now(),
      );
      const collection = await kb.store.getCollection(name.value);
      if (created) await audit("kb.collection.create", name.value, {});
      return ok({ created, collection });
    },

    /** A collection and its documents; null when there is no such collection. */
    async collection(name: string) {
      const { kb } = await open();
      const collection = await kb.store.getCollection(name);
      return collection ? { collection, documents: await kb.store.listDocuments(collection.name) } : null;
    },

    /** Removes a collection with its nodes and vectors; the count removed, or null when there was none. */
    async removeCollection(name: string): Promise<number | null> {
      const removed = await (await open()).kb.removeCollection(name);
      if (!removed) return null;
      await audit("kb.collection.delete", name, { nodes: removed.nodeIds.length });
      return removed.nodeIds.length;
    },

    /** Imports a batch (the good files stay imported whatever happens to others), then embeds what is new. */
    async importFiles(collection: string, files: SourceFile[]) {
      const { settings, kb } = await open();
      const result = await importFiles(kb.importDeps, collection, files);
      if (!result.ok) return result;
      const results = result.value;
      const embeddings = results.some((r) => r.status === "imported" || r.status === "replaced")
        ? await kb
            .refresh(settings.knowledge.embeddings.refreshPerRun)
            .catch((e) => [{ model: "?", error: String(e) }])
        : [];
      const failed = results.filter((r) => r.status === "failed").length;
      await audit("kb.import", collection, { files: results.length, failed });
      return ok({ results, failed, embeddings });
    },

    /** Removes one document; the count removed, or null when there was none. */
    async removeDocument(collection: string, sourceId: string): Promise<number | null> {
      const removed = await (await open()).kb.removeDocument(collection, sourceId);
      if (!removed) return null;
      await audit("kb.document.delete", collection, { source: sourceId, nodes: removed.nodeIds.length });
      return removed.nodeIds.length;
    },
  };
}

/** Search with the follow-up rewrite, and reading a node's context. */
function reads({ env, open }: KnowledgeContext) {
  return {
    /** Searches the given collections (all by default) after the follow-up rewrite, with the search profile. */
    async search(ask: KnowledgeQuery) {
      const { settings, kb } = await open();
      const collections = ask.collections ?? (await kb.store.listCollections()).map((x) => x.name);
      const profile = settings.knowledge.search;
      const rewritten = await apiSearchQuery(
        env,
        settings,
        ask.query,
        (ask.turns ?? []).map((text) => ({ role: "user" as const, text })),
      );
      const result = await searchKnowledge(kb.retrieval, {
        query: rewritten.query,
        collections: [...collections],
        options: profileOptions({ ...profile, limit: ask.limit ?? profile.limit }),
      });
      return {
        strategy: result.strategy,
        query: { text: rewritten.query, via: rewritten.via },
        tokens: result.tokens,
        items: result.items.map((it) => ({
          citation: it.citation,
          via: it.via,
          score: it.score,
          coverage: it.coverage,
          title: it.node.title,
          text: it.text,
        })),
      };
    },

    /** A node with its subtree, children or parents; null when it is in no collection. */
    async readNode(nodeId: string, mode: ReadMode) {
      const { kb } = await open();
      const collections = (await kb.store.listCollections()).map((x) => x.name);
      return readContext(kb.retrieval.store, { nodeId, mode, collections });
    },
  };
}

export type KnowledgeService = ReturnType<typeof knowledgeService>;
export type SearchAnswer = Awaited<ReturnType<KnowledgeService["search"]>>;
export type EmbeddingsStatus = Awaited<ReturnType<KnowledgeService["embeddingsStatus"]>>;
export type { DomainError, Result };
