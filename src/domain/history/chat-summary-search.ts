/**
 * The summary leg of cross-chat recall: the daily summaries (summary nodes of chat scope,
 * src/domain/summary) of the given chats that match a question, through the shared retrieval
 * pipeline over the context store — the chats are the caller's (the turn and the gate), every
 * hit is re-checked against the store and then against those chats again here.
 */
import type { ContextStore, KeywordIndex } from "../retrieval/ports";
import { DEFAULT_RETRIEVAL_OPTIONS, withOverrides } from "../retrieval/retrieval-options";
import { retrieve } from "../retrieval/retrieve";
import { scopeKey } from "../retrieval/scope-key";

export type SummaryHit = {
  readonly chatKey: string;
  /** The local day summarized (YYYY-MM-DD), when the node says. */
  readonly day: string | null;
  readonly text: string;
};

export type SummarySearchDeps = { readonly keywords: KeywordIndex; readonly store: ContextStore };

/** Characters of one summary shown: a summary is a digest, not a transcript. */
const SUMMARY_CHARS = 300;

export async function searchChatSummaries(
  deps: SummarySearchDeps,
  q: { readonly chatKeys: readonly string[]; readonly text: string; readonly limit: number },
): Promise<SummaryHit[]> {
  if (q.limit <= 0 || q.chatKeys.length === 0) return [];
  const allowed = new Set(q.chatKeys);
  const result = await retrieve(deps, {
    query: q.text,
    filter: { scopes: q.chatKeys.map((c) => scopeKey("chat", c)), nodeTypes: ["summary"] },
    options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, {
      limit: q.limit,
      candidates: { twoStageAbove: 0 },
      pack: { tokenBudget: 1500 },
    }),
  });
  return result.items.flatMap((item) => {
    const n = item.node;
    if (n.scopeType !== "chat" || !allowed.has(n.scopeId) || n.nodeType !== "summary") return [];
    const day = typeof n.metadata.day === "string" ? n.metadata.day : null;
    return [{ chatKey: n.scopeId, day, text: item.text.slice(0, SUMMARY_CHARS) }];
  });
}
