/**
 * History search through the shared retrieval pipeline (docs/retrieval.md#pipeline): every message of the
 * log is a conversation passage of its chat's scope, so history gets the pipeline's stages —
 * FTS over the chat's own namespace, the store re-check of chat and recall, neighbour
 * expansion (the turns around a hit), packing under a token budget and stable node ids.
 */

import { contentHash } from "../kernel/content-hash";
import type { ContextNode } from "../retrieval/context-node";
import type { ContextStore, KeywordIndex, Reranker } from "../retrieval/ports";
import {
  DEFAULT_RETRIEVAL_OPTIONS,
  type RetrievalOptions,
  withOverrides,
} from "../retrieval/retrieval-options";
import { retrieve } from "../retrieval/retrieve";
import { scopeKey } from "../retrieval/scope-key";
import { HISTORY_RETRIEVAL_OPTIONS } from "./history-retrieval-profile";
import type { HistoryHit } from "./history-search-port";

/** One row of the message log, as the history adapters read it. */
export type MessageRow = Omit<HistoryHit, "rank" | "via"> & { readonly recalled: boolean };

/** `m_<seq>`: stable for as long as the message is kept. */
export const messageNodeId = (seq: number): string => `m_${seq}`;

/** The seq of a message node id, or null for any other id. */
export function messageSeqOf(nodeId: string): number | null {
  const m = /^m_(\d+)$/.exec(nodeId);
  return m ? Number(m[1]) : null;
}

/**
 * A message as a context node: a conversation passage of scope `chat:<chat key>` with no
 * parent (the log is flat), positioned by its seq; a recalled message is archived. A message
 * is `public` to the read gate: a search names its chats, and reads each at `public`.
 */
export function messageNode(m: MessageRow): ContextNode {
  return {
    nodeId: messageNodeId(m.seq),
    parentId: null,
    rootId: null,
    path: [],
    position: m.seq,
    nodeType: "passage",
    sourceType: "conversation",
    sourceId: m.messageId,
    scopeType: "chat",
    scopeId: m.chatKey,
    collection: null,
    // The sender is the turn's title, as in the conversation trees: a question naming a
    // person ranks what they said up (the pipeline's hint list).
    title: m.nick,
    rawText: m.text,
    retrievalText: m.text,
    metadata: {
      seq: m.seq,
      messageId: m.messageId,
      ts: m.ts,
      nick: m.nick,
      direction: m.direction,
      ...(m.marked === undefined ? {} : { marked: m.marked }),
    },
    importance: 0,
    sensitivity: "public",
    portable: false,
    status: m.recalled ? "archived" : "active",
    contentHash: contentHash(m.text),
    createdAt: m.ts,
    updatedAt: m.ts,
  };
}

/**
 * The live log's profile: the history profile measured on LoCoMo
 * (docs/decisions/0003-history-profile-neighbours-after-five-hits.md), minus what a flat log has
 * no use for (two-stage search picks parents; messages have none).
 */
export const LIVE_HISTORY_OPTIONS: RetrievalOptions = withOverrides(
  DEFAULT_RETRIEVAL_OPTIONS,
  HISTORY_RETRIEVAL_OPTIONS,
  {
    candidates: { twoStageAbove: 0 },
    pack: { tokenBudget: 3000 },
  },
);

export type HistoryRetrievalDeps = {
  readonly keywords: KeywordIndex;
  readonly store: ContextStore;
  /** A model of meaning reordering the matches; absent = the words' order alone. */
  readonly rerank?: HistoryRerank;
};

/**
 * The read model as a reranker of history matches, fused with the words' order at `weight`
 * (the model's `historyFusionWeight`). It reorders only the matches the store re-checked for the
 * reader, so it can never bring in a message the view does not show
 * (docs/decisions/0490-history-matches-reranked-by-the-read-model.md).
 */
export type HistoryRerank = { readonly reranker: Reranker; readonly weight: number };

/**
 * Matches the reranker reads: the offline measure fused the model's order over up to 100
 * matches (experiment 0490); one Workers AI embedding call takes 100 texts.
 */
const HISTORY_RERANK_DEPTH = 100;

/**
 * Up to `limit` matches of `text` in one chat's log, best first, each followed in the answer
 * by the context turns the pipeline expanded (`via: "context"`), which do not count toward
 * `limit`. Recalled messages and other chats' messages never appear.
 */
export async function searchHistory(
  deps: HistoryRetrievalDeps,
  q: { readonly chatKey: string; readonly text: string; readonly limit: number },
): Promise<HistoryHit[]> {
  return searchHistoryOf(deps, { chatKeys: [q.chatKey], text: q.text, limit: q.limit });
}

/**
 * The same over several chats in one keyword query (their expressions ORed): the index
 * interleaves the chats' matches round-robin, since their bm25 scores are not comparable.
 */
export async function searchHistoryOf(
  deps: HistoryRetrievalDeps,
  q: { readonly chatKeys: readonly string[]; readonly text: string; readonly limit: number },
): Promise<HistoryHit[]> {
  if (q.limit <= 0 || q.chatKeys.length === 0) return [];
  const allowed = new Set(q.chatKeys);
  const options = withRerank(LIVE_HISTORY_OPTIONS, deps.rerank);
  const result = await retrieve(deps.rerank ? { ...deps, reranker: deps.rerank.reranker } : deps, {
    query: q.text,
    filter: { scopes: q.chatKeys.map((c) => scopeKey("chat", c)), nodeTypes: ["passage"] },
    // Room for the expanded turns on top of the hits asked for.
    options: { ...options, limit: q.limit + 2 * options.expand.neighbours * options.expand.hits },
  });
  const out: HistoryHit[] = [];
  let hits = 0;
  for (const item of result.items) {
    const via = item.via === "neighbour" ? "context" : "hit";
    if (via === "hit" && hits >= q.limit) continue;
    // The pipeline re-checked scope and status already; this guards the mapping itself.
    if (item.node.scopeType !== "chat" || !allowed.has(item.node.scopeId)) continue;
    const hit = historyHitOf(item.node, item.text, -item.score, via);
    if (!hit) continue;
    if (via === "hit") hits++;
    out.push(hit);
  }
  return out;
}

function withRerank(options: RetrievalOptions, rerank: HistoryRerank | undefined): RetrievalOptions {
  if (!rerank || rerank.weight <= 0) return options;
  return {
    ...options,
    rerank: { ...options.rerank, enabled: true, weight: rerank.weight, depth: HISTORY_RERANK_DEPTH },
  };
}

function historyHitOf(
  node: ContextNode,
  text: string,
  rank: number,
  via: "hit" | "context",
): HistoryHit | null {
  const m = node.metadata;
  const seq = messageSeqOf(node.nodeId);
  if (seq === null || typeof m.ts !== "number" || typeof m.messageId !== "string") return null;
  return {
    seq,
    chatKey: node.scopeId,
    messageId: m.messageId,
    ts: m.ts,
    nick: typeof m.nick === "string" ? m.nick : null,
    text,
    direction: m.direction === "out" ? "out" : "in",
    rank,
    via,
    ...(typeof m.marked === "boolean" ? { marked: m.marked } : {}),
  };
}
