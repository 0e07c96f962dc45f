/**
 * The retrieval profile of conversation history (session → turn trees, docs/retrieval.md#context-store):
 * turns are short and a question's evidence often sits one or two turns away from the turn
 * that matches it, so the first hit brings its neighbours — placed after the first five
 * direct hits, so that they never push a direct hit out of the top five.
 * Measured on the LoCoMo dev questions: docs/decisions/0003-history-profile-neighbours-after-five-hits.md.
 */
import type { RetrievalOverrides } from "../retrieval/retrieval-options";

export const HISTORY_RETRIEVAL_OPTIONS: RetrievalOverrides = {
  candidates: { readWholeTokens: 0 },
  rerank: { perRoot: 0 },
  // A session is read turn by turn: merging a short one into one item would hide its turns.
  expand: { neighbours: 2, hits: 1, after: 5, parentTokens: 0 },
};
