import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { profileOptions } from "@src/domain/knowledge/knowledge-search";
import {
  DEFAULT_RETRIEVAL_OPTIONS,
  unknownOptions,
  withOverrides,
} from "@src/domain/retrieval/retrieval-options";
import { describe, it } from "vitest";

describe("retrieval options", () => {
  it("lays an override over one field of a stage and keeps the stage's other fields", ({ expect }) => {
    const o = withOverrides(DEFAULT_RETRIEVAL_OPTIONS, { fuse: { weights: { vector: 0.5 } } });
    expect(o.fuse.weights).toEqual({ keyword: 1, inside: 1, vector: 0.5 });
    expect(o.fuse.hints).toEqual(DEFAULT_RETRIEVAL_OPTIONS.fuse.hints);
    expect(o.expand).toBe(DEFAULT_RETRIEVAL_OPTIONS.expand);
    // The defaults themselves are left as they were.
    expect(DEFAULT_RETRIEVAL_OPTIONS.fuse.weights.vector).toBe(1);
  });

  it("lets a later override win and an absent field change nothing", ({ expect }) => {
    const o = withOverrides(
      DEFAULT_RETRIEVAL_OPTIONS,
      { limit: 3, pack: { tokenBudget: 10 } },
      { pack: { tokenBudget: 20, shareBudget: undefined } },
    );
    expect(o.limit).toBe(3);
    expect(o.pack).toEqual({ tokenBudget: 20, shareBudget: false });
  });

  it("turns memory scoring on from its null default", ({ expect }) => {
    const o = withOverrides(DEFAULT_RETRIEVAL_OPTIONS, { rerank: { memory: { halfLifeDays: 30 } } });
    expect(o.rerank.memory).toEqual({ halfLifeDays: 30 });
    expect(withOverrides(o, { rerank: { memory: null } }).rerank.memory).toBeNull();
  });

  it("names every override that is no option, the flat names of the old shape among them", ({ expect }) => {
    expect(unknownOptions({ expand: { parentTokens: 0 }, rerank: { memory: { now: 1 } } })).toEqual([]);
    expect(
      unknownOptions({
        parentTokens: 0,
        candidates: { window: 5, vector: { prefix: "x" } },
        rerank: { memory: { days: 3 } },
      }),
    ).toEqual(["parentTokens", "candidates.window", "candidates.vector.prefix", "rerank.memory.days"]);
  });

  it("maps a settings profile into the stages that read its fields", ({ expect }) => {
    const search = DEFAULT_SETTINGS.knowledge.search;
    const o = profileOptions(search);
    expect(o.limit).toBe(search.limit);
    expect(o.candidates.keywordWindow).toBe(search.candidates);
    expect(o.candidates.vector.window).toBe(search.candidates);
    expect(o.coverage).toEqual({ min: search.minCoverage, relevanceFloor: search.relevanceFloor });
    expect(o.fields.headingWeight).toBe(search.headingWeight);
    expect(o.expand).toEqual({
      neighbours: search.neighbours,
      hits: search.expandHits,
      after: 0,
      parentTokens: search.parentTokens,
    });
    expect(o.rerank.perRoot).toBe(search.perRoot);
    expect(o.pack).toEqual({ tokenBudget: search.tokenBudget, shareBudget: true });
    // What a profile does not name stays at the pipeline's defaults.
    expect(o.fuse.rrfK).toBe(DEFAULT_RETRIEVAL_OPTIONS.fuse.rrfK);
    expect(o.candidates.vector).toEqual(DEFAULT_RETRIEVAL_OPTIONS.candidates.vector);
  });
});
