import type { KnowledgeSettings } from "@src/domain/config/knowledge-settings";
import { DEFAULT_SETTINGS, resolveSettings } from "@src/domain/config/settings";
import { fusionWeights } from "@src/domain/knowledge/fusion-weights";
import { describe, it } from "vitest";

function withModel(model: Record<string, unknown> | null, read: string | null = "m"): KnowledgeSettings {
  const base = DEFAULT_SETTINGS.knowledge;
  const models = model ? { ...base.embeddings.models, m: { ...base.embeddings.models.local, ...model } } : {};
  return { ...base, embeddings: { ...base.embeddings, models, read } } as KnowledgeSettings;
}

describe("the read model's fusion weights", () => {
  it("fuses knowledge at the model's knowledge weight and memory at its own weight", ({ expect }) => {
    expect(fusionWeights(withModel({ fusionWeight: 1, knowledgeFusionWeight: 0 }))).toEqual({
      knowledge: 0,
      memory: 1,
      history: 0,
    });
  });

  it("uses the one weight for both when the model sets no knowledge weight", ({ expect }) => {
    expect(fusionWeights(withModel({ fusionWeight: 0.5 }))).toEqual({
      knowledge: 0.5,
      memory: 0.5,
      history: 0,
    });
  });

  it("reranks history at the model's history weight, and not at all when the model sets none", ({
    expect,
  }) => {
    expect(fusionWeights(withModel({ fusionWeight: 1, historyFusionWeight: 2 })).history).toBe(2);
    expect(fusionWeights(withModel({ fusionWeight: 1, knowledgeFusionWeight: 3 })).history).toBe(0);
  });

  it("keeps production's bge-m3 at weight 1 for both, and history with the words", ({ expect }) => {
    const knowledge = {
      ...DEFAULT_SETTINGS.knowledge,
      embeddings: { ...DEFAULT_SETTINGS.knowledge.embeddings, read: "bge-m3" },
    };
    expect(fusionWeights(knowledge)).toEqual({ knowledge: 1, memory: 1, history: 0 });
  });

  it("fuses nothing without a read model or with one the settings do not describe", ({ expect }) => {
    const none = { knowledge: 0, memory: 0, history: 0 };
    expect(fusionWeights(withModel({ fusionWeight: 1, historyFusionWeight: 2 }, null))).toEqual(none);
    expect(fusionWeights(withModel(null, "missing"))).toEqual(none);
  });

  it.for([[-1], [6], ["2"]])("refuses a history weight of %j and names the field", ([weight], { expect }) => {
    const resolved = resolveSettings({
      knowledge: { embeddings: { models: { local: { historyFusionWeight: weight } } } },
    });
    expect(resolved.ok).toBe(false);
    expect(!resolved.ok && resolved.error.field).toBe(
      "knowledge.embeddings.models.local.historyFusionWeight",
    );
  });
});
