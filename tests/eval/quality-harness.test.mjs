// The evaluation harness's own judgements: the quality guard fails a metric below its minimum
// and a metric that is missing; memory recall scores any gold item, and a question whose gold the
// user never said is refused rather than scored as a miss.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { byCategory } from "../../scripts/eval/by-category.mjs";
import { hitMetrics, readMemoryQuestions } from "../../scripts/eval/memory-recall.mjs";
import { belowRequired } from "../../scripts/eval/required-quality.mjs";

describe("the quality guard", () => {
  const result = { pipeline: { answerable: { "hit@5": 0.85 }, "hit@1": 0.7 }, baseline: { "hit@1": 0.5 } };

  it("passes metrics at or above their minimums", () => {
    assert.deepEqual(
      belowRequired(result, { "pipeline.answerable.hit@5": 0.85, "pipeline.hit@1": 0.69 }),
      [],
    );
  });

  it("names a metric below its minimum, and one the result lacks", () => {
    assert.deepEqual(
      belowRequired(result, {
        "pipeline.hit@1": 0.72,
        "pipeline.answerable.hit@10": 0.5,
        "pipeline.paraphrase.hit@5": 0.1,
      }),
      [
        "pipeline.hit@1 = 0.7 < 0.72",
        "pipeline.answerable.hit@10 is missing",
        "pipeline.paraphrase.hit@5 is missing",
      ],
    );
  });
});

describe("memory recall scoring", () => {
  it("counts any gold item, at its first rank", () => {
    const questions = [
      { id: "a", gold: ["d1:3", "d2:5"] },
      { id: "b", gold: ["d1:1"] },
      { id: "c", gold: ["d3:1"] },
    ];
    const ranked = new Map([
      ["a", ["d9:1", "d2:5", "d1:3"]],
      ["b", ["d1:1"]],
      ["c", ["d1:1", "d1:2", "d1:3", "d1:4", "d1:5", "d3:1"]],
    ]);
    assert.deepEqual(hitMetrics(ranked, questions), {
      "hit@1": 0.3333,
      "hit@3": 0.6667,
      "hit@5": 0.6667,
      "MRR@10": round((1 / 2 + 1 + 1 / 6) / 3),
    });
  });

  it("refuses a question whose gold the user never said", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "memory-questions-"));
    try {
      const file = path.join(dir, "q.jsonl");
      const said = new Map([["user-01", [{ dia_id: "2023-04-27:3" }]]]);
      writeFileSync(
        file,
        `${JSON.stringify({ id: "x", conv_id: "user-01", question: "？", gold: ["2023-04-27:3"] })}\n`,
      );
      assert.equal(readMemoryQuestions(file, said).length, 1);
      writeFileSync(
        file,
        `${JSON.stringify({ id: "y", conv_id: "user-01", question: "？", gold: ["2023-04-28:1"] })}\n`,
      );
      assert.throws(() => readMemoryQuestions(file, said), /user-01 said no 2023-04-28:1/);
      writeFileSync(file, `${JSON.stringify({ id: "z", conv_id: "user-01", question: "？", gold: [] })}\n`);
      assert.throws(() => readMemoryQuestions(file, said), /non-empty gold/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the repository's question file names 100 or more questions over 15 users", async () => {
    const { readFileSync } = await import("node:fs");
    const rows = readFileSync(
      path.resolve(import.meta.dirname, "../../scripts/eval/data/memory-recall.jsonl"),
      "utf8",
    )
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
    assert.ok(rows.length >= 100, `${rows.length} questions`);
    assert.equal(new Set(rows.map((r) => r.id)).size, rows.length, "ids are unique");
    assert.equal(new Set(rows.map((r) => r.conv_id)).size, 15);
    for (const r of rows) assert.ok(r.gold.length > 0 && r.question.length > 0, r.id);
  });
});

const round = (x) => Math.round(x * 10000) / 10000;

describe("metrics by category", () => {
  it("scores each category on its own questions only, in category order", () => {
    const questions = [
      { id: "a", category: 4, category_name: "single-hop" },
      { id: "b", category: 1, category_name: "multi-hop" },
      { id: "c", category: 4, category_name: "single-hop" },
    ];
    const out = byCategory(questions, (subset) => ({ ids: subset.map((q) => q.id).join(",") }));
    assert.deepEqual(Object.keys(out), ["multi-hop", "single-hop"]);
    assert.deepEqual(out, {
      "multi-hop": { questions: 1, ids: "b" },
      "single-hop": { questions: 2, ids: "a,c" },
    });
  });
});
