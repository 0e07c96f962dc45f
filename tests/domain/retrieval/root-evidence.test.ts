import { describe, it } from "vitest";
import { rootEvidenceRanking } from "../../../src/domain/retrieval/root-evidence";

const rootOf = (id: string) => id.split("#")[0] ?? id;

describe("document evidence", () => {
  it("ranks a page with several matching passages above a single stronger entry elsewhere", ({ expect }) => {
    const ranked = [
      { nodeId: "glossary#slot", score: 9 },
      { nodeId: "slots#named", score: 6 },
      { nodeId: "slots#scoped", score: 4 },
      { nodeId: "slots#intro", score: 3 },
    ];
    expect(rootEvidenceRanking(ranked, rootOf).map((r) => r.nodeId)).toEqual([
      "slots#named",
      "slots#scoped",
      "slots#intro",
      "glossary#slot",
    ]);
  });

  it("counts at most the best few passages of a document, and keeps their order inside it", ({ expect }) => {
    const long = Array.from({ length: 10 }, (_, i) => ({ nodeId: `ssr#p${i}`, score: 1 }));
    const ranked = [{ nodeId: "async#hydrate", score: 5 }, ...long];
    const out = rootEvidenceRanking(ranked, rootOf, 3);
    // Ten weak passages of one long page weigh 3, not 10: the strong page stays first.
    expect(out[0]).toEqual({ nodeId: "async#hydrate", score: 5 });
    expect(out.slice(1).map((r) => r.nodeId)).toEqual(long.map((r) => r.nodeId));
    expect(out[1]?.score).toBe(3);
  });
});
