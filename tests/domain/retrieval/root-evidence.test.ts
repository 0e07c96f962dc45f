import { rootEvidenceRanking } from "@src/domain/retrieval/root-evidence";
import { describe, it } from "vitest";

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

  it("counts a long entry cut into several passages as one section of its document", ({ expect }) => {
    // The API entry <KeepAlive> is one section in three passages; the guide page has three sections.
    const ranked = [
      { nodeId: "api#keepalive/1", score: 10 },
      { nodeId: "api#keepalive/2", score: 9 },
      { nodeId: "guide#include/1", score: 8 },
      { nodeId: "api#keepalive/3", score: 7 },
      { nodeId: "guide#max/1", score: 5 },
      { nodeId: "guide#lifecycle/1", score: 4 },
    ];
    const sectionOf = (id: string) => id.split("/")[0] ?? id;
    const out = rootEvidenceRanking(ranked, rootOf, 3, sectionOf);
    // guide: 8 + 5 + 4 = 17; api: one section, its best passage, 10.
    expect(out.map((r) => r.nodeId)).toEqual([
      "guide#include/1",
      "guide#max/1",
      "guide#lifecycle/1",
      "api#keepalive/1",
      "api#keepalive/2",
      "api#keepalive/3",
    ]);
    expect(out[0]?.score).toBe(17);
    expect(out[3]?.score).toBe(10);
    // Counted by passage (each its own section), the API entry's 10 + 9 + 7 would lead.
    expect(rootEvidenceRanking(ranked, rootOf, 3)[0]?.nodeId).toBe("api#keepalive/1");
  });
});
