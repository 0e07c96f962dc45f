/**
 * Knowledge-base search over the shared retrieval pipeline: which collections a chat may
 * read (from settings, never from the model), the profile → pipeline options mapping, and
 * context_read's navigation (subtree, children, parents) with the same scope check.
 */
import type { KnowledgeSettings } from "../config/knowledge-settings";
import type { RetrievalProfile } from "../config/retrieval-profile-settings";
import type { ContextNode } from "../retrieval/context-node";
import type { ContextStore } from "../retrieval/ports";
import { filterGate } from "../retrieval/read-gate";
import {
  DEFAULT_RETRIEVAL_OPTIONS,
  type RetrievalOptions,
  withOverrides,
} from "../retrieval/retrieval-options";
import { type RetrievalDeps, retrieve } from "../retrieval/retrieve";
import type { RetrievalResult } from "../retrieval/retrieved-item";
import { collectionScope } from "../retrieval/scope-key";
import type { KnowledgeAdmin } from "./knowledge-admin";

/** What the turn needs from the knowledge base; built by the composition root. */
export type KnowledgeAccess = {
  /** The pipeline's ports for these settings (which embedding model is read, reranker). */
  retrieval(settings: KnowledgeSettings): RetrievalDeps;
  /** Names of all existing collections. */
  listCollections(): Promise<string[]>;
  /** Listing and removal for admins (`kb_manage`); vectors follow these settings' models. */
  admin(settings: KnowledgeSettings): KnowledgeAdmin;
};

/** Collections a chat may read: its override, else the global list; "*" = every existing one. */
export async function readableCollections(
  settings: KnowledgeSettings,
  chatKey: string,
  all: () => Promise<string[]>,
): Promise<string[]> {
  const allowed = settings.chatCollections[chatKey] ?? settings.collections;
  if (allowed.length === 0) return [];
  const existing = await all();
  if (allowed.includes("*")) return existing;
  const known = new Set(existing);
  return allowed.filter((c) => known.has(c));
}

/**
 * A settings profile (`knowledge.search`, `knowledge.autoRecall`) as the pipeline's options: the
 * settings keep their flat, owner-facing names; each lands in the group of the stage that reads it.
 */
export function profileOptions(profile: RetrievalProfile): RetrievalOptions {
  return withOverrides(DEFAULT_RETRIEVAL_OPTIONS, {
    limit: profile.limit,
    candidates: {
      keywordWindow: profile.candidates,
      vector: { window: profile.candidates },
      readWholeTokens: profile.readWholeTokens,
      twoStageAbove: profile.twoStageAbove,
    },
    fuse: { hints: { sharpness: profile.hintSharpness } },
    fields: { headingWeight: profile.headingWeight, weights: { roots: profile.documentEvidence } },
    coverage: { min: profile.minCoverage, relevanceFloor: profile.relevanceFloor },
    rerank: { enabled: profile.rerank, perRoot: profile.perRoot },
    expand: { neighbours: profile.neighbours, hits: profile.expandHits, parentTokens: profile.parentTokens },
    pack: { tokenBudget: profile.tokenBudget, shareBudget: true },
  });
}

export async function searchKnowledge(
  deps: RetrievalDeps,
  input: { query: string; collections: readonly string[]; options: RetrievalOptions },
): Promise<RetrievalResult> {
  return retrieve(deps, {
    query: input.query,
    filter: {
      scopes: input.collections.map(collectionScope),
      nodeTypes: ["passage"],
      collections: input.collections,
    },
    options: input.options,
  });
}

export type ReadMode = "subtree" | "children" | "parents";

const SUBTREE_LIMIT = 200;

/**
 * A node and its surroundings for context_read: `children` (direct), `subtree` (depth-first,
 * at most 200 nodes), `parents` (the chain up to the document). Null when the node does not
 * exist, is not active, or lies outside the readable collections.
 */
export async function readContext(
  store: ContextStore,
  input: { nodeId: string; mode: ReadMode; collections: readonly string[] },
): Promise<{ node: ContextNode; related: ContextNode[] } | null> {
  const [node] = await store.load([input.nodeId]);
  // The read gate over the readable collections (read-gate.ts): an active node of one of them.
  const visible = filterGate({ scopes: input.collections.map(collectionScope) });
  if (!node || !visible(node)) return null;
  if (input.mode === "parents")
    return { node, related: (await store.ancestors(node.nodeId)).filter(visible) };
  if (input.mode === "children")
    return { node, related: (await store.children(node.nodeId, SUBTREE_LIMIT)).filter(visible) };
  const related: ContextNode[] = [];
  const walk = async (id: string): Promise<void> => {
    for (const child of await store.children(id, SUBTREE_LIMIT)) {
      if (related.length >= SUBTREE_LIMIT) return;
      if (!visible(child)) continue;
      related.push(child);
      await walk(child.nodeId);
    }
  };
  await walk(node.nodeId);
  return { node, related };
}
