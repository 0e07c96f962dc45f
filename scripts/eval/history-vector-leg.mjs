// `node scripts/eval/history-vector-leg.mjs --live <file> [--live <file> …] [--weights 0.3,0.5,1]
//   [--vectors <cache.jsonl>] [--query-prefix <text>] [--within-live]`: would a vector leg help
// history search on the live log? Each `--live` file comes from `npm run eval -- locomo|memorybank … --live-dump <file>`: the log as
// written, and per question the live search's first 100 matches and the days and senders it
// resolved. Here every message is embedded alone by the local model (bge-small-zh-v1.5, the text
// the log holds), every question with the model's query prefix; the model ranks the messages of
// the question's chat inside the same resolved days and senders, and that ranking is fused with
// the live one by reciprocal rank (k = 60) at each weight. Printed per file: recall@5/@10,
// hit@1/@5 and MRR@10 of the live search, the model alone and each fusion, overall and per
// category. Read with docs/experiments/0490-history-recall-with-the-local-model.md.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { verifiedModel } from "../model/cache.mjs";
import { loadEmbedder } from "../model/embedder.mjs";
import { BGE_SMALL_ZH } from "../model/pinned.mjs";
import { withVectorCache } from "../model/vector-cache.mjs";
import { byCategory } from "./by-category.mjs";
import { mean, recallMetrics, round } from "./recall-metrics.mjs";

const { values } = parseArgs({
  options: {
    live: { type: "string", multiple: true },
    weights: { type: "string", default: "0.3,0.5,1" },
    vectors: { type: "string" },
    // The model card's query prefix unless given ("" = the question alone).
    "query-prefix": { type: "string", default: BGE_SMALL_ZH.queryPrefix },
    // The model ranks only the live search's own matches (a rerank, no index of vectors).
    "within-live": { type: "boolean", default: false },
  },
});
if (!values.live?.length) throw new Error("usage: --live <file> [--live <file> …] [--weights W,…]");
const readJsonl = (file) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const RRF_K = 60;
const weights = values.weights.split(",").map(Number);
const dot = (a, b) => a.reduce((n, x, i) => n + x * b[i], 0);

const loaded = await loadEmbedder(BGE_SMALL_ZH, await verifiedModel(BGE_SMALL_ZH), { threads: 2 });
// --vectors: the evaluations' vector cache (keyed by each text's sha256, never the text itself).
const model = values.vectors ? withVectorCache(loaded, values.vectors) : loaded;
for (const file of values.live) {
  const [{ chats }, ...questions] = readJsonl(file);
  const messages = Object.entries(chats).flatMap(([chat, list]) => list.map((m) => ({ ...m, chat })));
  const vectors = await messageVectors(messages.map((m) => m.text));
  const asked = (await model.embed(questions.map((q) => values["query-prefix"] + q.question))).vectors;
  const lists = { live: new Map(), model: new Map() };
  for (const w of weights) lists[`fused w${w}`] = new Map();
  questions.forEach((q, i) => {
    const ranked = modelRanking(messages, vectors, q, asked[i]);
    lists.live.set(q.id, q.matches);
    lists.model.set(q.id, ranked);
    for (const w of weights) lists[`fused w${w}`].set(q.id, fuse(q.matches, ranked, w));
  });
  const score = (subset) =>
    Object.fromEntries(Object.entries(lists).map(([name, results]) => [name, metrics(results, subset)]));
  const categorized = questions.some((q) => q.category_name);
  console.log(
    JSON.stringify({
      live: path.basename(file),
      questions: questions.length,
      all: score(questions),
      ...(categorized ? { by_category: byCategory(questions, score) } : {}),
    }),
  );
}
loaded.close();

/** recall@5/@10 and MRR@10 (recall-metrics.mjs), and hit@1/@5: any gold message among the first k. */
function metrics(results, questions) {
  const hit = (k) =>
    round(
      mean(
        questions.map((q) =>
          (results.get(q.id) ?? []).slice(0, k).some((id) => q.gold.includes(id)) ? 1 : 0,
        ),
      ),
    );
  return {
    ...recallMetrics(
      results,
      questions,
      (q) => q.gold,
      (id) => [id],
      [5, 10],
    ),
    "hit@1": hit(1),
    "hit@5": hit(5),
  };
}

/** The chat's messages inside the resolved days and senders, by similarity, first 100 ids. */
function modelRanking(messages, vectors, q, vector) {
  const r = q.resolved;
  const senders = r?.senders ? new Set(r.senders) : null;
  return messages
    .map((m, k) => ({ m, k }))
    .filter(({ m }) => m.chat === q.chat)
    .filter(({ m }) => !values["within-live"] || q.matches.includes(m.id))
    .filter(({ m }) => r?.since == null || m.ts >= r.since)
    .filter(({ m }) => r?.until == null || m.ts < r.until)
    .filter(({ m }) => senders === null || senders.has(m.speaker))
    .map(({ m, k }) => ({ id: m.id, sim: dot(vector, vectors[k]) }))
    .sort((a, b) => b.sim - a.sim)
    .slice(0, 100)
    .map((x) => x.id);
}

/** Reciprocal-rank fusion of the live list (weight 1) and the model's (weight w). */
function fuse(live, ranked, w) {
  const score = new Map();
  const add = (list, weight) => {
    for (const [i, id] of list.entries()) score.set(id, (score.get(id) ?? 0) + weight / (RRF_K + i + 1));
  };
  add(live, 1);
  add(ranked, w);
  return [...score].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

/** One vector per text, in batches, with progress on stderr. */
async function messageVectors(texts) {
  const vectors = [];
  for (let i = 0; i < texts.length; i += 256) {
    vectors.push(...(await model.embed(texts.slice(i, i + 256))).vectors);
    process.stderr.write(`embedded ${Math.min(i + 256, texts.length)} of ${texts.length}\n`);
  }
  return vectors;
}
