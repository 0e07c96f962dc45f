import { type Fielded, fieldScores, tokenCounts } from "@src/domain/retrieval/field-score";
import { sectionEvidenceRanking } from "@src/domain/retrieval/section-evidence";
import { describe, it } from "vitest";

const fielded = (heading: string, body: string): Fielded => ({
  heading: tokenCounts(heading),
  body: tokenCounts(body),
  own: [],
});
const sectionOf = (id: string) => id.split("/")[0] ?? id;
const terms = new Map([
  ["hydration", 1],
  ["mismatch", 1],
]);

describe("section evidence", () => {
  // The ssr section is cut into two passages, each holding one of the asked words; the
  // testing section's one passage holds one of them twice.
  const fields = new Map([
    ["testing/1", fielded("testing", "hydration hydration checks in unit tests")],
    ["ssr/1", fielded("ssr", "hydration attaches the server markup to the client")],
    ["ssr/2", fielded("ssr", "a mismatch between server and client markup is reported")],
  ]);
  const ranked = () => {
    const scores = fieldScores(
      terms,
      [...fields].map(([id, f]) => ({ id, fields: f })),
    );
    return [...scores].map(([nodeId, score]) => ({ nodeId, score })).sort((a, b) => b.score - a.score);
  };

  it("judges a section cut into passages as one text", ({ expect }) => {
    // Passage by passage the testing section's repeated word wins.
    expect(ranked()[0]?.nodeId).toBe("testing/1");
    const out = sectionEvidenceRanking(ranked(), fields, terms, sectionOf);
    expect(out.map((r) => r.nodeId)).toEqual(["ssr/1", "ssr/2", "testing/1"]);
    // Both passages of a section carry its one score.
    expect(out[0]?.score).toBe(out[1]?.score);
  });

  it("keeps the order of the passages inside a section, and leaves out candidates without fields", ({
    expect,
  }) => {
    const out = sectionEvidenceRanking(
      [
        { nodeId: "ssr/2", score: 2 },
        { nodeId: "ssr/1", score: 1 },
        { nodeId: "gone/1", score: 3 },
      ],
      fields,
      terms,
      sectionOf,
    );
    expect(out.map((r) => r.nodeId)).toEqual(["ssr/2", "ssr/1", "gone/1"]);
    expect(out[2]?.score).toBe(0);
  });
});
