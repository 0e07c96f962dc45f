import { withoutQuestionPhrases } from "@src/domain/retrieval/question-phrases";
import { DEFAULT_RETRIEVAL_OPTIONS, withOverrides } from "@src/domain/retrieval/retrieval-options";
import {
  countedTokens,
  idfWeights,
  queryTurns,
  readQuery,
  weightedTerms,
} from "@src/domain/retrieval/stages/read-query";
import { describe, it } from "vitest";

const withFloor = withOverrides(DEFAULT_RETRIEVAL_OPTIONS, { coverage: { relevanceFloor: 0.25 } });

describe("read-query", () => {
  it("reads a query's lines as turns, oldest first, and a blank query as one turn", ({ expect }) => {
    expect(queryTurns("Pinia 是什么\n\n  \n那 storeToRefs 呢")).toEqual([
      "Pinia 是什么",
      "那 storeToRefs 呢",
    ]);
    expect(queryTurns("  ")).toEqual(["  "]);
  });

  it("keeps the query as asked for embedding and searches what is asked about", ({ expect }) => {
    const text = "keep-alive 是做什么的？";
    const q = readQuery(text, DEFAULT_RETRIEVAL_OPTIONS);
    expect(q.text).toBe(text);
    expect(q.asked).toBe(withoutQuestionPhrases(text));
    // The question phrase is cut before tokenizing: only what is asked about is searched.
    expect([...q.tokens]).toEqual(["keep", "alive"]);
  });

  it("weighs turn words only when the fielded scoring or the floor reads them", ({ expect }) => {
    const plain = readQuery("Pinia 怎么用", DEFAULT_RETRIEVAL_OPTIONS);
    expect(plain.turnWeights).toBeNull();
    expect(countedTokens(plain)).toEqual([]);
    expect(weightedTerms(plain, { rows: 10, df: new Map() })).toBeNull();

    const fielded = readQuery(
      "Pinia 怎么用",
      withOverrides(DEFAULT_RETRIEVAL_OPTIONS, { fields: { headingWeight: 3 } }),
    );
    expect(fielded.turnWeights?.get("pinia")).toBe(1);
  });

  it("weighs the asking turn's words above an earlier turn's, and counts every one", ({ expect }) => {
    const q = readQuery("Pinia\nstoreToRefs", withFloor);
    expect(q.turns).toEqual(["Pinia", "storeToRefs"]);
    const now = q.turnWeights?.get("storetorefs") ?? 0;
    const before = q.turnWeights?.get("pinia") ?? 0;
    expect(now).toBe(1);
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(now);
    expect(countedTokens(q)).toEqual(expect.arrayContaining(["pinia", "storetorefs"]));
  });

  it("multiplies each word's IDF by its turn's weight, and needs counts to do so", ({ expect }) => {
    const q = readQuery("Pinia\nstoreToRefs", withFloor);
    expect(weightedTerms(q, undefined)).toBeNull();
    const f = {
      rows: 100,
      df: new Map([
        ["pinia", 9],
        ["storetorefs", 9],
      ]),
    };
    const idf = Math.log(1 + (100 - 9 + 0.5) / (9 + 0.5));
    const w = weightedTerms(q, f);
    expect(w?.get("storetorefs")).toBeCloseTo(idf, 10);
    expect(w?.get("pinia")).toBeCloseTo(idf * (q.turnWeights?.get("pinia") ?? 0), 10);
  });

  it("weighs a rare word above a common one, never below zero", ({ expect }) => {
    const w = idfWeights(new Set(["rare", "common"]), {
      rows: 100,
      df: new Map([
        ["rare", 1],
        ["common", 100],
      ]),
    });
    expect(w.get("rare") ?? 0).toBeGreaterThan(w.get("common") ?? 0);
    expect(w.get("common") ?? -1).toBeGreaterThan(0);
  });
});
