// `npm run eval -- write-merge [--data <dir>] [--set <file>] [--no-vectors] [--dump <file>]`: write-time
// merge of restatements (docs/memory.md#write-time-merge, decision 0410). No Worker, no D1.
//
// 1. Pairs: the labelled set (scripts/eval/data/restatements.jsonl; dev and held written together,
//    before any run) scored by the detector as the code configures it, with a sweep of the lexical
//    and cosine thresholds on dev only. Cosines come from the local model of meaning
//    (bge-small-zh, `npm run model:fetch`) when it is in the cache, unless --no-vectors.
// 2. Replay: every MemoryBank-zh user's ten days (AKASHA_EVAL_DATA or --data) dreamed offline, one
//    run a day, with the rule extractor, into the in-memory store with the D1 adapter's visibility
//    rules, in the user's private chat — with merge by words, with merge by words and the local
//    model's vectors (when it is in the cache; decision 0460), and with merge off (the same-run
//    baseline). The set's statements are planted in the person's own words ("我喜欢…"): a pair's
//    first on day 2, its second on day 7, one replay for the dev pairs and one for the held pairs.
//    A duplicate is judged without the detector: two active items of one scope whose normalised
//    texts are equal, or that hold the two statements of a pair labelled "same". A wrong merge is
//    one item holding both statements of a pair labelled "different".
import { writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";
import { verifiedModel } from "../model/cache.mjs";
import { loadEmbedder } from "../model/embedder.mjs";
import { BGE_SMALL_ZH } from "../model/pinned.mjs";
import { evalDataDir } from "./data-dir.mjs";
import { bundleDomain, readJsonl } from "./domain-bundle.mjs";
import { replay } from "./write-merge-replay.mjs";

/** Precision, recall and wrong merges of a decision rule over labelled pairs. */
function score(pairs, merges) {
  const tp = pairs.filter((p) => p.label === "same" && merges(p)).length;
  const fp = pairs.filter((p) => p.label === "different" && merges(p)).length;
  const same = pairs.filter((p) => p.label === "same").length;
  const r = (x) => Math.round(x * 1000) / 10;
  return {
    pairs: pairs.length,
    merged_same: tp,
    of_same: same,
    wrong_merges: fp,
    precision: r(tp / Math.max(1, tp + fp)),
    recall: r(tp / Math.max(1, same)),
  };
}

/**
 * A threshold from dev alone: halfway between the highest score of a pair that must not merge and
 * the lowest score above it of a pair that should (no dev pair merged wrongly); pairs a barrier
 * already keeps apart are left out.
 */
function sweep(pairs, value) {
  const scored = pairs.filter((p) => value(p) !== null);
  const worst = Math.max(...scored.filter((p) => p.label === "different").map(value));
  const above = scored.filter((p) => p.label === "same" && value(p) > worst).map(value);
  if (above.length === 0) return null;
  return Math.round(((worst + Math.min(...above)) / 2) * 1000) / 1000;
}

async function embedderOrNull(flags) {
  if (flags["no-vectors"]) return null;
  try {
    return await loadEmbedder(BGE_SMALL_ZH, await verifiedModel(BGE_SMALL_ZH));
  } catch (e) {
    console.error(`no vectors: ${e.message}`);
    return null;
  }
}

async function scorePairs(api, set, embedder) {
  const scope = { type: "person", id: "p" };
  const rows = [];
  for (const p of set) {
    const vectors = embedder ? (await embedder.embed([p.a, p.b])).vectors : [null, null];
    const a = { scope, kind: p.kind, text: p.a, subjectKey: p.keyA, vector: vectors[0] };
    const b = { scope, kind: p.kind, text: p.b, subjectKey: p.keyB, vector: vectors[1] };
    const s = api.restatementScore(a, b);
    rows.push({
      ...p,
      barrier: api.mergeBarrier(a, b),
      lexical: s.lexical,
      cosine: s.cosine,
      merged: api.isRestatement(a, b) !== null,
    });
  }
  return rows;
}

export async function evalWriteMerge(flags) {
  const api = await bundleDomain([
    "src/domain/memory/dreaming.ts",
    "src/domain/memory/restatement.ts",
    "src/domain/memory/memory.ts",
    "src/domain/memory/scope.ts",
    "src/domain/agent/offline-chat-model.ts",
    "src/domain/kernel/logger.ts",
    "tests/fakes/in-memory-memory.ts",
  ]);
  const setFile =
    typeof flags.set === "string" ? flags.set : path.join(root, "scripts/eval/data/restatements.jsonl");
  const set = readJsonl(setFile);
  const embedder = await embedderOrNull(flags);
  const rows = await scorePairs(api, set, embedder);
  const dev = rows.filter((r) => r.split === "dev");
  const open = (r) => r.barrier === null;
  const report = {
    thresholds: api.RESTATEMENT_THRESHOLDS,
    vectors: embedder ? BGE_SMALL_ZH.servedAs : null,
    dev_sweep: {
      lexical_midpoint: sweep(dev, (p) => (open(p) ? p.lexical : null)),
      cosine_midpoint: embedder ? sweep(dev, (p) => (open(p) ? p.cosine : null)) : null,
    },
    pairs: {},
    replay: {},
  };
  for (const split of ["dev", "held"]) {
    const of = rows.filter((r) => r.split === split);
    report.pairs[split] = {
      detector: score(of, (p) => p.merged),
      lexical_only: score(
        of,
        (p) => open(p) && p.lexical >= api.RESTATEMENT_THRESHOLDS.lexical && api.addsNoCharacter(p.a, p.b),
      ),
    };
  }
  const dataDir = typeof flags.data === "string" ? path.resolve(flags.data) : evalDataDir();
  const turns = readJsonl(path.join(dataDir, "memorybank-zh", "turns.jsonl"));
  const dumps = {};
  const cache = new Map();
  for (const split of ["dev", "held"]) {
    const plants = set.filter((p) => p.split === split);
    const { summary, dump } = await replay(api, turns, plants, embedder, cache);
    report.replay[split] = summary;
    dumps[split] = dump;
  }
  await embedder?.close();
  if (typeof flags.dump === "string")
    writeFileSync(
      flags.dump,
      JSON.stringify({ pairs: rows.map(({ vector, ...r }) => r), replay: dumps }, null, 1),
    );
  console.log(JSON.stringify(report, null, 1));
}
