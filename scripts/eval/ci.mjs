// `npm run eval:ci`: the quality guard CI runs (.ci/run). Each dev-set evaluation runs with the
// local model of meaning (bge-small-zh-v1.5, `npm run model:fetch`) and fails CI when a metric
// falls below its minimum, set a few points under what was measured when the settings were
// chosen (docs/decisions/0172-local-model-settings-and-quality-guard.md), so a later change
// cannot silently lose what the model gained. One evaluation at a time; the datasets' folder is
// AKASHA_EVAL_DATA (scripts/eval/data-dir.mjs) and must exist: a guard that cannot run fails,
// except under `--if-data`, which CI passes because a fresh clone may have no datasets' folder
// beside it: then the guard says loudly that it did not run and the run goes on.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";
import { evalDataDir } from "./data-dir.mjs";

const data = evalDataDir();

/** The guarded sets: arguments of `npm run eval` and the minimums of their printed metrics. */
export const GUARDED = [
  {
    name: "memory recall (tune half)",
    args: ["memory", "--turns", path.join(data, "memorybank-zh", "turns.jsonl"), "--split", "tune"],
    require: { "pipeline.hit@1": 0.72, "pipeline.hit@5": 0.88, "pipeline.MRR@10": 0.78 },
  },
  {
    // The live log asked the same paraphrases: the local model reranking the matches (`live`),
    // and the words' order alone (docs/decisions/0490-history-matches-reranked-by-the-read-model.md).
    name: "history recall of what was said (tune half)",
    args: [
      "memorybank",
      "--turns",
      path.join(data, "memorybank-zh", "turns.jsonl"),
      "--recall-questions",
      path.join(root, "scripts/eval/data/memory-recall.jsonl"),
      "--split",
      "tune",
    ],
    require: {
      "live.hit@5": 0.69,
      "live.MRR@10": 0.48,
      "live_lexical_only.hit@5": 0.62,
      "live_lexical_only.MRR@10": 0.34,
    },
  },
  {
    name: "Vue docs (dev questions)",
    args: ["vue-docs", "--docs", path.join(data, "vue-docs-zh-cn", "docs")],
    require: {
      "pipeline.answerable.hit@1": 0.6,
      "pipeline.answerable.hit@5": 0.81,
      "pipeline.answerable.MRR@5": 0.7,
      "pipeline.paraphrase.hit@5": 0.64,
      "pipeline.unanswerable.share_empty": 0.8,
    },
  },
];

function main() {
  const missing = GUARDED.flatMap((s) => s.args.filter((a) => a.startsWith(data) && !existsSync(a)));
  if (missing.length > 0 && process.argv.includes("--if-data")) {
    console.error(
      `eval:ci NOT RUN: datasets not found (${missing.join(", ")}); set AKASHA_EVAL_DATA to their folder to run the quality guard`,
    );
    process.exit(0);
  }
  if (missing.length > 0) {
    console.error(
      `eval:ci: datasets not found (${missing.join(", ")}); set AKASHA_EVAL_DATA to their folder`,
    );
    process.exit(2);
  }
  let failed = 0;
  for (const set of GUARDED) {
    const started = Date.now();
    const run = spawnSync(
      process.execPath,
      [
        path.join(root, "scripts/eval/run.mjs"),
        ...set.args,
        "--local-model",
        "--require",
        JSON.stringify(set.require),
      ],
      { cwd: root, stdio: "inherit" },
    );
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(`eval:ci: ${set.name}: ${run.status === 0 ? "kept" : "FAILED"} in ${seconds} s`);
    if (run.status !== 0) failed++;
  }
  process.exit(failed > 0 ? 1 : 0);
}

main();
