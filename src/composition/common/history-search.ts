/**
 * History search assembled from the D1 message log's indexes and its recency reads: turn
 * windows inside conversation sessions (the production path), or `flat` — each message
 * matched alone, as before the log built conversation trees — for the evaluation's comparison.
 */
import { D1ContextStore } from "../../adapters/d1/d1-context-store";
import { D1KeywordIndex } from "../../adapters/d1/d1-keyword-index";
import { messageRetrieval } from "../../adapters/d1/d1-message-retrieval";
import { D1RecentMessages } from "../../adapters/d1/d1-recent-messages";
import type { HistoryRerank } from "../../domain/history/history-retrieval";
import type { HistorySearch } from "../../domain/history/history-search-port";
import { LogHistorySearch } from "../../domain/history/log-history-search";
import { fusionWeights } from "../../domain/knowledge/fusion-weights";
import { EmbeddingReranker } from "../../domain/retrieval/embedding-reranker";
import { cachedSettingsSource } from "../settings/settings-loader";
import { createEmbedder } from "./knowledge-services";

type HistoryRerankSource = () => Promise<HistoryRerank | null>;

/**
 * `log` is where the messages are read: D1 by default, or a chat object's own SQLite through the
 * D1 API (object-log-history.ts). The daily summaries are D1's either way. `rerank`: the model
 * that reorders the matches, by default the read model at its `historyFusionWeight` as the
 * settings say at each search (none at weight 0, the default).
 */
export function historySearch(
  env: Env,
  {
    flat = false,
    log = env.DB,
    rerank = historyRerankOf(env),
  }: { readonly flat?: boolean; readonly log?: D1Database; readonly rerank?: HistoryRerankSource } = {},
): HistorySearch {
  return new LogHistorySearch({
    // One pair per search: the store serves the rows the index's statement already read.
    indexes: (view) => messageRetrieval(log, { ...view, flat }),
    recent: new D1RecentMessages(log),
    summaries: { keywords: new D1KeywordIndex(env.DB), store: new D1ContextStore(env.DB) },
    rerank,
  });
}

/** The read model as history's reranker when its history weight is above 0 and it can run here. */
function historyRerankOf(env: Env): HistoryRerankSource {
  const settings = cachedSettingsSource(env);
  return async () => {
    const { knowledge } = await settings.current();
    const weight = fusionWeights(knowledge).history;
    const read = knowledge.embeddings.read;
    const model = read ? knowledge.embeddings.models[read] : undefined;
    if (weight <= 0 || !model) return null;
    const embedder = createEmbedder(env, model);
    if (!embedder) return null;
    const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
    return { reranker: new EmbeddingReranker(embedder, { after }), weight };
  };
}
