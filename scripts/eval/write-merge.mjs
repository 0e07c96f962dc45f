// `npm run eval -- write-merge [--data <dir>] [--set <file>] [--no-vectors] [--dump <file>]
//   [--embed-url <base url> --embed-model <id> [--embed-dims N] [--embed-key <key>]] [--cosine C] [--pairs-only]`:
// write-time merge of restatements (docs/memory.md#write-time-merge, decision 0410). No Worker, no D1.
//
// 1. Pairs: the labelled set (scripts/eval/data/restatements.jsonl; dev and held written together,
//    before any run) scored by the detector as the code configures it, with a sweep of the lexical
//    and cosine thresholds on dev only. Cosines come from the local model of meaning
//    (bge-small-zh, `npm run model:fetch`) when it is in the cache, unless --no-vectors; with
//    --embed-url, from that OpenAI-compatible endpoint (key: EMBEDDING_API_KEY; openai-embedder.mjs),
//    judged at the dev sweep's cosine midpoint — the threshold to measure for that model — and the
//    line the owner copies into settings is printed on stderr. --cosine judges at a given cosine.
// 2. Replay (skipped with --pairs-only): every MemoryBank-zh user's ten days (AKASHA_EVAL_DATA or
//    --data) dreamed offline, one run a day, with the rule extractor, into the in-memory store with
//    the D1 adapter's visibility rules, in the user's private chat — with merge by words, with
//    merge by words and the measured model's vectors ("merge_vectors", when there are vectors;
//    decision 0460), and with merge off (the same-run baseline). The set's statements are planted
//    in the person's own words ("我喜欢…"): a pair's first on day 2, its second on day 7, one replay
//    for the dev pairs and one for the held pairs. A duplicate is judged without the detector: two
//    active items of one scope whose normalised texts are equal, or that hold the two statements
//    of a pair labelled "same". A wrong merge is one item holding both statements of a pair
//    labelled "different".
import { writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";
import { evalDataDir } from "./data-dir.mjs";
import { bundleDomain, readJsonl } from "./domain-bundle.mjs";
import { EndpointError } from "./openai-embedder.mjs";
import { cosineThreshold, settingsHint, UsageError, writeMergeEmbedder } from "./write-merge-embedder.mjs";
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

/** One vector per distinct text of the set, in the embedder's batches; none without an embedder. */
async function vectorsOfSet(set, embedder, cache) {
  if (!embedder) return cache;
  const texts = [...new Set(set.flatMap((p) => [p.a, p.b]))].filter((t) => !cache.has(t));
  const { vectors } = await embedder.embed(texts);
  for (const [i, t] of texts.entries()) cache.set(t, vectors[i]);
  return cache;
}

function statementsOf(p, vectors) {
  const scope = { type: "person", id: "p" };
  return [
    { scope, kind: p.kind, text: p.a, subjectKey: p.keyA, vector: vectors.get(p.a) ?? null },
    { scope, kind: p.kind, text: p.b, subjectKey: p.keyB, vector: vectors.get(p.b) ?? null },
  ];
}

/** Each pair's barrier and scores; `merged` is filled in once the threshold is known. */
function scorePairs(api, set, vectors) {
  return set.map((p) => {
    const [a, b] = statementsOf(p, vectors);
    const s = api.restatementScore(a, b);
    return { ...p, barrier: api.mergeBarrier(a, b), lexical: s.lexical, cosine: s.cosine, merged: null };
  });
}

const DOMAIN = [
  "src/domain/memory/dreaming.ts",
  "src/domain/memory/restatement.ts",
  "src/domain/memory/memory.ts",
  "src/domain/memory/scope.ts",
  "src/domain/agent/offline-chat-model.ts",
  "src/domain/kernel/logger.ts",
  "tests/fakes/in-memory-memory.ts",
];

/** The labelled pairs scored, swept on dev, and judged at the run's thresholds. */
async function pairsReport(api, set, embedder, flags, cache) {
  const vectors = await vectorsOfSet(set, embedder, cache);
  const rows = scorePairs(api, set, vectors);
  const dev = rows.filter((r) => r.split === "dev");
  const open = (r) => r.barrier === null;
  const lexicalMidpoint = sweep(dev, (p) => (open(p) ? p.lexical : null));
  const cosineMidpoint = embedder ? sweep(dev, (p) => (open(p) ? p.cosine : null)) : null;
  const cosine = embedder ? cosineThreshold(flags, api.RESTATEMENT_THRESHOLDS.cosine, cosineMidpoint) : null;
  const thresholds =
    cosine === api.RESTATEMENT_THRESHOLDS.cosine || !embedder
      ? api.RESTATEMENT_THRESHOLDS
      : { lexical: api.RESTATEMENT_THRESHOLDS.lexical, cosine };
  const judged = { lexical: thresholds.lexical, cosine: thresholds.cosine ?? Number.POSITIVE_INFINITY };
  for (const r of rows) r.merged = api.isRestatement(...statementsOf(r, vectors), judged) !== null;
  const report = {
    thresholds,
    vectors: embedder?.name ?? null,
    dev_sweep: { lexical_midpoint: lexicalMidpoint, cosine_midpoint: cosineMidpoint },
    pairs: {},
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
  return { report, rows, cosine };
}

async function replays(api, set, embedder, flags, cache, cosine) {
  const dataDir = typeof flags.data === "string" ? path.resolve(flags.data) : evalDataDir();
  const turns = readJsonl(path.join(dataDir, "memorybank-zh", "turns.jsonl"));
  const summaries = {};
  const dumps = {};
  // No cosine (an endpoint whose dev pairs no cosine separates): no vectors run to replay.
  const vectors = embedder && cosine !== null ? { embedder, cache, threshold: cosine } : null;
  for (const split of ["dev", "held"]) {
    const plants = set.filter((p) => p.split === split);
    const { summary, dump } = await replay(api, turns, plants, vectors);
    summaries[split] = summary;
    dumps[split] = dump;
  }
  return { summaries, dumps };
}

async function run(flags) {
  const api = await bundleDomain(DOMAIN);
  const setFile =
    typeof flags.set === "string" ? flags.set : path.join(root, "scripts/eval/data/restatements.jsonl");
  const set = readJsonl(setFile);
  const embedder = await writeMergeEmbedder(flags);
  const cache = new Map();
  try {
    const { report, rows, cosine } = await pairsReport(api, set, embedder, flags, cache);
    let dumps;
    if (!flags["pairs-only"]) {
      const replayed = await replays(api, set, embedder, flags, cache, cosine);
      report.replay = replayed.summaries;
      dumps = replayed.dumps;
    }
    if (typeof flags.dump === "string")
      writeFileSync(
        flags.dump,
        JSON.stringify({ pairs: rows, ...(dumps ? { replay: dumps } : {}) }, null, 1),
      );
    console.log(JSON.stringify(report, null, 1));
    if (flags["embed-url"] !== undefined)
      console.error(settingsHint(flags, embedder.name, cosine, report.pairs.held.detector));
  } finally {
    await embedder?.close();
  }
}

export async function evalWriteMerge(flags) {
  try {
    await run(flags);
  } catch (e) {
    if (!(e instanceof UsageError || e instanceof EndpointError)) throw e;
    console.error(e.message);
    process.exit(e instanceof UsageError ? 2 : 1);
  }
}
