/**
 * In-memory ports of the retrieval pipeline for domain tests: a node builder, a substring
 * keyword index that honours the scope filter as the D1 one does, a store, and a vector index
 * that answers whatever it was told (a stale or broken index).
 */
import type { ContextNode, NodeType } from "../../src/domain/retrieval/context-node";
import type {
  Candidate,
  ContextStore,
  IndexFilter,
  KeywordIndex,
  VectorIndex,
} from "../../src/domain/retrieval/ports";
import { parseScopeKey, type ScopeKey } from "../../src/domain/retrieval/scope-key";
import { searchTokens } from "../../src/domain/text/search-tokens";

export function node(id: string, scope: string, text: string, extra: Partial<ContextNode> = {}): ContextNode {
  const s = parseScopeKey(scope);
  if (!s) throw new Error(scope);
  return {
    nodeId: id,
    parentId: "p",
    rootId: "r",
    path: [],
    position: 0,
    nodeType: "passage",
    sourceType: "document",
    sourceId: `${id}.txt`,
    scopeType: s.type,
    scopeId: s.id,
    collection: s.type === "collection" ? s.id : null,
    title: null,
    rawText: text,
    retrievalText: text,
    metadata: {},
    importance: 0.5,
    sensitivity: "public",
    portable: true,
    status: "active",
    contentHash: id,
    createdAt: 0,
    updatedAt: 0,
    ...extra,
  };
}

/** Substring-matching keyword index over nodes, honouring the scope filter like the D1 one. */
export class FakeKeywords implements KeywordIndex {
  constructor(readonly nodes: ContextNode[]) {}
  async search(q: IndexFilter & { text: string; limit: number }): Promise<Candidate[]> {
    const words = q.text.split(/\s+/).filter(Boolean);
    return this.nodes
      .filter(
        (n) =>
          q.scopes.includes(`${n.scopeType}:${n.scopeId}` as ScopeKey) && q.nodeTypes.includes(n.nodeType),
      )
      .map((n) => ({ nodeId: n.nodeId, score: words.filter((w) => n.retrievalText.includes(w)).length }))
      .filter((c) => c.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, q.limit);
  }
}

export class FakeStore implements ContextStore {
  constructor(readonly nodes: ContextNode[]) {}
  async load(ids: readonly string[]) {
    return this.nodes.filter((n) => ids.includes(n.nodeId));
  }
  async size() {
    return { count: this.nodes.length, tokens: 10_000 };
  }
  async readAll() {
    return this.nodes;
  }
  async children() {
    return [];
  }
  async childrenOf(_ids: readonly string[], _nodeTypes: readonly NodeType[]) {
    return new Map<string, ContextNode[]>();
  }
  async neighbours(_ids: readonly string[], _radius: number): Promise<ContextNode[]> {
    return [];
  }
  async ancestors() {
    return [];
  }
}

/** A vector index that returns whatever it was told, ignoring scopes (a stale or broken index). */
export class CannedVectors implements VectorIndex {
  readonly external = true;
  constructor(readonly ids: string[]) {}
  async query(_q: IndexFilter & { readonly embedding: readonly number[]; readonly limit: number }) {
    return this.ids.map((nodeId, i) => ({ nodeId, score: 1 - i / 10 }));
  }
  async upsert() {}
  async remove() {}
}

export const embedder = {
  model: { id: "t", version: "1", dims: 2 },
  maxBatch: 10,
  async embed(texts: readonly string[]) {
    return { ok: true as const, value: texts.map(() => [1, 0]) };
  },
};

export const filter = (scopes: string[], nodeTypes: NodeType[] = ["passage"]) => ({
  scopes: scopes as ScopeKey[],
  nodeTypes,
});

/** FakeKeywords with document frequencies counted over its nodes' search tokens. */
export class CountingKeywords extends FakeKeywords {
  async frequencies(q: IndexFilter & { tokens: readonly string[] }) {
    const rows = this.nodes.filter((n) => q.scopes.includes(`${n.scopeType}:${n.scopeId}` as ScopeKey));
    const df = new Map(
      q.tokens.map((t) => [t, rows.filter((n) => new Set(searchTokens(n.retrievalText)).has(t)).length]),
    );
    return { rows: rows.length, df };
  }
}

/**
 * Passages of collection `a`, one of collection `b`, an archived one of `a` and a memory of a
 * group chat, all holding or near "风神": what a scope or status leak would surface.
 */
export const mixedScopeNodes = (): ContextNode[] => [
  node("a1", "collection:a", "风神 蒙德"),
  node("a2", "collection:a", "岩神 璃月"),
  node("b1", "collection:b", "风神 秘密"),
  node("a3", "collection:a", "风神 旧闻", { status: "archived" }),
  node("m1", "chat:qq:group:G1", "风神 记忆", { nodeType: "memory" }),
];

/** retrieve()'s ports over `nodes`; with `vectorIds`, a vector index answering those and the embedder too. */
export const portsOver = (nodes: ContextNode[], vectorIds?: string[]) => ({
  keywords: new FakeKeywords(nodes),
  store: new FakeStore(nodes),
  ...(vectorIds ? { vectors: new CannedVectors(vectorIds), embedder } : {}),
});

/** A keyword index over `nodes` that keeps, in `searched`, the text of every search it is sent. */
export function recordingKeywords(nodes: ContextNode[]) {
  const keywords = new FakeKeywords(nodes);
  const searched: string[] = [];
  const search = keywords.search.bind(keywords);
  keywords.search = async (q) => {
    searched.push(q.text);
    return search(q);
  };
  return { keywords, searched };
}
