/**
 * HistorySearch over the message log: searches run through the shared retrieval pipeline
 * (`searchHistory`) over the indexes the wiring supplies for a time view; recency listings
 * come straight from the log's storage.
 */

import { type HistoryRetrievalDeps, searchHistory } from "./history-search-pipeline";
import type { HistoryHit, HistorySearch } from "./history-search-port";

/** The log's newest messages of one chat, newest first, recalled ones left out. */
export interface RecentMessages {
  recent(q: { chatKey: string; limit: number }): Promise<HistoryHit[]>;
}

export type PipelineHistorySearchDeps = {
  /** The keyword index and store of the log, limited to messages older than `before` when set. */
  readonly indexes: (view: { before?: number }) => HistoryRetrievalDeps;
  readonly recent: RecentMessages;
};

/** Searches return at most this many hits, whatever the caller asks for. */
const MAX_SEARCH_HITS = 100;
/** Recency listings are between 1 and this many messages. */
const MAX_RECENT = 500;

export class PipelineHistorySearch implements HistorySearch {
  readonly #deps: PipelineHistorySearchDeps;
  constructor(deps: PipelineHistorySearchDeps) {
    this.#deps = deps;
  }

  async search(q: { chatKey: string; text: string; limit: number; before?: number }): Promise<HistoryHit[]> {
    const view = q.before === undefined ? {} : { before: q.before };
    return searchHistory(this.#deps.indexes(view), {
      chatKey: q.chatKey,
      text: q.text,
      limit: Math.min(q.limit, MAX_SEARCH_HITS),
    });
  }

  async recent(q: { chatKey: string; limit: number }): Promise<HistoryHit[]> {
    return this.#deps.recent.recent({
      chatKey: q.chatKey,
      limit: Math.max(1, Math.min(q.limit, MAX_RECENT)),
    });
  }
}
