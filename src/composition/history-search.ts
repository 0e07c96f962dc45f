/** History search assembled from the D1 message log's indexes and its recency reads. */
import { D1MessageKeywordIndex, D1MessageStore } from "../adapters/d1/d1-message-retrieval";
import { D1RecentMessages } from "../adapters/d1/d1-recent-messages";
import type { HistorySearch } from "../domain/history/history-search-port";
import { PipelineHistorySearch } from "../domain/history/pipeline-history-search";

export function historySearch(env: Env): HistorySearch {
  return new PipelineHistorySearch({
    indexes: (view) => ({
      keywords: new D1MessageKeywordIndex(env.DB, view),
      store: new D1MessageStore(env.DB, view),
    }),
    recent: new D1RecentMessages(env.DB),
  });
}
