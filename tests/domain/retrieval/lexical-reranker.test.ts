import { lexicalScores } from "@src/domain/retrieval/lexical-reranker";
import { describe, it } from "vitest";

describe("lexical reranker", () => {
  it("the lexical reranker prefers the passage that shares the rare characters", ({ expect }) => {
    const [a, b] = lexicalScores("张世昌出名的原因", [
      "张世昌在河南建业替补。张世昌",
      "张世昌以火爆的性格闻名",
    ]);
    expect(b).toBeGreaterThan(a ?? 0);
  });
});
