/**
 * HistorySearch over the message log: searches run through the shared retrieval pipeline
 * (`searchHistory`) over the indexes the wiring supplies for a view of the log; recency
 * listings and sender names come straight from the log's storage.
 */

import type { SummaryHit, SummarySearchDeps } from "./chat-summary-search";
import { MAX_SEARCH_HITS, recentLimit } from "./history-limits";
import {
  type HistoryRerank,
  type HistoryRetrievalDeps,
  searchHistory,
  searchHistoryOf,
} from "./history-retrieval";
import type { HistoryFilter, HistoryHit, HistoryReader, HistorySearch } from "./history-search-port";
import { summaryLeg } from "./summary-leg";

/** The log's newest messages of one chat, newest first, recalled ones left out. */
export interface RecentMessages {
  recent(q: { chatKey: string; limit: number } & HistoryFilter & HistoryReader): Promise<HistoryHit[]>;
  senders(chatKeys: readonly string[]): Promise<{ chatKey: string; nick: string }[]>;
}

/** A view of the log: older than `before`, inside the filter's time range and senders. */
export type HistoryView = { readonly before?: number } & HistoryFilter & HistoryReader;

export type LogHistorySearchDeps = {
  /** The keyword index and store of the log, limited to the view. */
  readonly indexes: (view: HistoryView) => HistoryRetrievalDeps;
  readonly recent: RecentMessages;
  /** The context store's index and nodes, for the chats' daily summaries; absent = no summary leg. */
  readonly summaries?: SummarySearchDeps;
  /** The reranker of this search's matches, as the settings say now; absent or null = none. */
  readonly rerank?: () => Promise<HistoryRerank | null>;
};

export class LogHistorySearch implements HistorySearch {
  readonly #deps: LogHistorySearchDeps;
  constructor(deps: LogHistorySearchDeps) {
    this.#deps = deps;
  }

  async search(
    q: { chatKey: string; text: string; limit: number; before?: number } & HistoryFilter & HistoryReader,
  ): Promise<HistoryHit[]> {
    const view: HistoryView = {
      reader: q.reader,
      ...(q.before === undefined ? {} : { before: q.before }),
      ...(q.since === undefined ? {} : { since: q.since }),
      ...(q.until === undefined ? {} : { until: q.until }),
      ...(q.senders === undefined ? {} : { senders: q.senders }),
    };
    return searchHistory(await this.#indexes(view), {
      chatKey: q.chatKey,
      text: q.text,
      limit: Math.min(q.limit, MAX_SEARCH_HITS),
    });
  }

  async searchAcross(
    q: { chatKeys: readonly string[]; text: string; limit: number } & HistoryFilter & HistoryReader,
  ): Promise<HistoryHit[]> {
    const { chatKeys, text, limit, ...filter } = q;
    return searchHistoryOf(await this.#indexes(filter), {
      chatKeys,
      text,
      limit: Math.min(limit, MAX_SEARCH_HITS),
    });
  }

  async #indexes(view: HistoryView): Promise<HistoryRetrievalDeps> {
    const rerank = (await this.#deps.rerank?.()) ?? null;
    const indexes = this.#deps.indexes(view);
    return rerank ? { ...indexes, rerank } : indexes;
  }

  async recent(q: { chatKey: string; limit: number } & HistoryFilter & HistoryReader): Promise<HistoryHit[]> {
    return this.#deps.recent.recent({ ...q, limit: recentLimit(q.limit) });
  }

  async senders(chatKeys: readonly string[]): Promise<{ chatKey: string; nick: string }[]> {
    return this.#deps.recent.senders(chatKeys);
  }

  async searchSummaries(q: {
    chatKeys: readonly string[];
    text: string;
    limit: number;
  }): Promise<SummaryHit[]> {
    return summaryLeg(this.#deps.summaries, q);
  }
}
