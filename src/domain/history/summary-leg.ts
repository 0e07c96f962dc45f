/**
 * The summary leg of a history search: the chats' daily summaries from the context store when
 * the wiring gave it one, none otherwise, and no more of them than a search returns hits.
 */
import { type SummaryHit, type SummarySearchDeps, searchChatSummaries } from "./chat-summary-search";
import { MAX_SEARCH_HITS } from "./history-limits";

export async function summaryLeg(
  deps: SummarySearchDeps | undefined,
  q: { chatKeys: readonly string[]; text: string; limit: number },
): Promise<SummaryHit[]> {
  if (!deps) return [];
  return searchChatSummaries(deps, { ...q, limit: Math.min(q.limit, MAX_SEARCH_HITS) });
}
