/**
 * The weights the read model's vector leg is fused at: memory recall reads `fusionWeight`,
 * knowledge search `knowledgeFusionWeight` when a model sets it. One model can help one and
 * cost the other: the local bge-small-zh lifts memory recall and lowers every knowledge set
 * (docs/decisions/0261-local-model-fused-for-memory-not-knowledge.md). History search reranks
 * its matches at `historyFusionWeight`, 0 unless a model sets it: measured for the local model
 * only (docs/decisions/0490-history-matches-reranked-by-the-read-model.md).
 */
import type { KnowledgeSettings } from "../config/knowledge-settings";

export type FusionWeights = {
  readonly knowledge: number;
  readonly memory: number;
  readonly history: number;
};

/** No read model, or one the settings do not describe: nothing to fuse. */
export function fusionWeights(knowledge: KnowledgeSettings): FusionWeights {
  const read = knowledge.embeddings.read;
  const model = read ? knowledge.embeddings.models[read] : undefined;
  if (!model) return { knowledge: 0, memory: 0, history: 0 };
  const memory = model.fusionWeight ?? 1;
  return {
    knowledge: model.knowledgeFusionWeight ?? memory,
    memory,
    history: model.historyFusionWeight ?? 0,
  };
}
