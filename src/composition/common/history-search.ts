/**
 * History search assembled from the D1 message log's indexes and its recency reads: turn
 * windows inside conversation sessions (the production path), or `flat` — each message
 * matched alone, as before the log built conversation trees — for the evaluation's comparison.
 */
import { D1ContextStore } from "../../adapters/d1/d1-context-store";
import { D1KeywordIndex } from "../../adapters/d1/d1-keyword-index";
import { messageRetrieval } from "../../adapters/d1/d1-message-retrieval";
import { D1RecentMessages } from "../../adapters/d1/d1-recent-messages";
import type { HistorySearch } from "../../domain/history/history-search-port";
import { LogHistorySearch } from "../../domain/history/log-history-search";

/**
 * `log` is where the messages are read: D1 by default, or a chat object's own SQLite through the
 * D1 API (object-log-history.ts). The daily summaries are D1's either way.
 */
export function historySearch(
  env: Env,
  { flat = false, log = env.DB }: { readonly flat?: boolean; readonly log?: D1Database } = {},
): HistorySearch {
  return new LogHistorySearch({
    // One pair per search: the store serves the rows the index's statement already read.
    indexes: (view) => messageRetrieval(log, { ...view, flat }),
    recent: new D1RecentMessages(log),
    summaries: { keywords: new D1KeywordIndex(env.DB), store: new D1ContextStore(env.DB) },
  });
}
