// `npm run eval -- <dataset> [options]`: retrieval quality of the project's pipeline against a
// same-run baseline (plain FTS5 bm25 over the same units' raw text, no context), on the
// formats of the public datasets named below (paths are flags). Runs inside workerd: it starts the Worker locally (wrangler dev,
// fresh local D1 in .eval/), loads the data through local-only /dev/eval routes that call the
// production import, indexing and retrieval code, and prints one JSON line of metrics.
//
//   npm run eval -- cmrc2018 --passages <passages.jsonl> --queries <queries.jsonl> [--chunk-size 200]
//   npm run eval -- locomo   --turns <turns.jsonl> --questions <questions.jsonl> [--live-only] [--live-dump <file>]   (see locomo-live.mjs)
//   npm run eval -- memorybank --turns <turns.jsonl> --questions <questions.jsonl>   (see memorybank.mjs)
//   npm run eval -- memorybank --turns <memorybank-zh turns.jsonl> --recall-questions <memory-recall.jsonl> [--live-dump <file>]
//   npm run eval -- memory   --turns <memorybank-zh turns.jsonl> [--questions <file>]   (memory recall; see memory-recall.mjs)
//   npm run eval -- kdconv   --passages <passages.jsonl> --queries <queries.jsonl> [--context-only]
//   npm run eval -- vue-docs --docs <dir> [--questions <file>] [--chunk-size 800]   (see vue-docs.mjs)
//   npm run eval -- privacy-wording [--corpus <file>] [--baseline <commit>]   (see privacy-wording.mjs; no Worker)
//   npm run eval -- credentials [--corpus <file>] [--data <dir>] [--show N]   (see credentials.mjs; no Worker)
//   npm run eval -- share-markers [--corpus <file>] [--baseline <commit>] [--data <dir>] [--show N]   (see share-markers.mjs; no Worker)
//   npm run eval -- knowledge-update [--set <file>] [--data <dir>] [--dump <file>] [--later <days>]   (see knowledge-update.mjs; no Worker)
//   npm run eval -- write-merge [--set <file>] [--data <dir>] [--no-vectors] [--dump <file>] [--pairs-only]
//     [--embed-url <base url> --embed-model <id> [--embed-dims N] [--embed-key <key>]] [--cosine C]   (see write-merge.mjs; no Worker)
//
// Options for experiments: --options '<json>' overrides pipeline options, grouped by stage as
// RetrievalOptions is (e.g. '{"expand":{"parentTokens":0}}'; a name that is no option is refused),
// --limit-queries N evaluates the first N queries only, --no-vectors runs FTS only,
// --vector-weight W fuses the local embedder's kNN at weight W (default: the model's setting, 0),
// --dump <file> writes every query with both result lists, --settings '<json>' merges into settings,
// --require '{"<dotted metric>": min}' exits 1 when a metric is below its minimum (CI, ci.mjs),
// --split tune|hold evaluates half of the questions (cmrc2018, locomo, kdconv, memory; see splitFilter),
// --variants '[{"name","vectorWeight","options"}]' searches again with each in the same run,
// --remote-ai runs against the real Workers AI embedder and reranker (see remote-ai.mjs; needs a login),
// with a Workers AI chat model (--chat-model <id>, default the production one) rewriting follow-ups.
// --local-model reads and writes the local model of meaning (bge-small-zh-v1.5, `npm run
// model:fetch`) through the embedding service this run starts (EVAL_EMBEDDINGS_PORT, default any
// free port; EVAL_EMBEDDINGS_THREADS onnxruntime threads, default 1), fused as the local stack
// fuses it (memory recall at 1, knowledge search at 0; scripts/model/local-service.mjs) unless
// --settings or --vector-weight say otherwise. Vectors are kept in a file beside the model and
// read back on later runs (EVAL_VECTOR_CACHE: another file, or "off"). The Worker runs from a
// bundle built at the start, so editing the tree during a run does not restart it.
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";
import { applyLocalMigrations, freezeWorker, frozenWranglerEnv, startWranglerDev } from "../lib/wrangler.mjs";
import { startLocalEmbeddings, vectorCacheFile, withLocalModel } from "../model/local-service.mjs";
import { byCategory } from "./by-category.mjs";
import { evalCredentials } from "./credentials.mjs";
import { evalKnowledgeUpdate } from "./knowledge-update.mjs";
import { evalLocomoLive } from "./locomo-live.mjs";
import { DEFAULT_MEMORY_QUESTIONS, evalMemoryRecall } from "./memory-recall.mjs";
import { evalMemorybank } from "./memorybank.mjs";
import { evalPrivacyWording } from "./privacy-wording.mjs";
import { mean, recallMetrics, round } from "./recall-metrics.mjs";
import {
  REMOTE_AI_SETTINGS,
  REMOTE_CHAT_MODEL,
  remoteAiConfig,
  requireCloudflareLogin,
} from "./remote-ai.mjs";
import { belowRequired } from "./required-quality.mjs";
import { evalShareMarkers } from "./share-markers.mjs";
import { DEFAULT_QUESTIONS, evalVueDocs } from "./vue-docs.mjs";
import { evalWriteMerge } from "./write-merge.mjs";

const [dataset, ...rest] = process.argv.slice(2);
const flags = {};
for (let i = 0; i < rest.length; i++) {
  const a = rest[i];
  if (!a.startsWith("--")) continue;
  const next = rest[i + 1];
  if (next === undefined || next.startsWith("--")) flags[a.slice(2)] = true;
  else {
    flags[a.slice(2)] = next;
    i++;
  }
}

// Detector evaluations run the domain code directly: no Worker, no D1.
const DETECTORS = {
  "privacy-wording": evalPrivacyWording,
  credentials: evalCredentials,
  "share-markers": evalShareMarkers,
  "knowledge-update": evalKnowledgeUpdate,
  "write-merge": evalWriteMerge,
};
if (DETECTORS[dataset]) {
  await DETECTORS[dataset](flags);
  process.exit(0);
}

const DATASETS = {
  cmrc2018: evalCmrc,
  locomo: evalLocomo,
  kdconv: evalKdconv,
  "vue-docs": evalVueDocsSections,
  memorybank: () =>
    evalMemorybank({
      post,
      readJsonl,
      maxQueries,
      recallQuestions: typeof flags["recall-questions"] === "string" ? flags["recall-questions"] : undefined,
      split: splitFilter((q) => q.id),
      liveDump: typeof flags["live-dump"] === "string" ? flags["live-dump"] : undefined,
    }),
  memory: () =>
    evalMemoryRecall({
      post,
      readJsonl,
      maxQueries,
      questionsFile: typeof flags.questions === "string" ? flags.questions : DEFAULT_MEMORY_QUESTIONS,
      split: splitFilter((q) => q.id),
      refresh: refreshEmbeddings,
      variants: variantsGiven(),
    }),
};
if (!DATASETS[dataset]) {
  console.error(
    `usage: npm run eval -- <${[...Object.keys(DATASETS), ...Object.keys(DETECTORS)].join("|")}> [options]  (see scripts/eval/run.mjs)`,
  );
  process.exit(2);
}

/** Deep merge of plain objects (b wins); arrays and values replace. */
function mergeSettings(a, b) {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const both = v && typeof v === "object" && !Array.isArray(v) && out[k] && typeof out[k] === "object";
    out[k] = both ? mergeSettings(out[k], v) : v;
  }
  return out;
}

const readJsonl = (file) =>
  readFileSync(requireFlag(file), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

function requireFlag(name) {
  const value = flags[name.replace(/^--/, "")] ?? name;
  if (typeof value !== "string") throw new Error(`--${name} is required`);
  return value;
}

const overrides = flags.options ? JSON.parse(flags.options) : {};
const maxQueries = flags["limit-queries"] ? Number(flags["limit-queries"]) : Number.POSITIVE_INFINITY;

// --remote-ai: Workers AI (bge-m3 embedder, bge-reranker-base) through wrangler's remote binding.
const remoteAi = flags["remote-ai"] === true;
if (remoteAi) {
  try {
    requireCloudflareLogin();
  } catch (err) {
    console.error(err.message);
    process.exit(2);
  }
}
const persistTo = process.env.EVAL_STATE_DIR ?? path.join(root, ".eval", "state");
rmSync(persistTo, { recursive: true, force: true });
applyLocalMigrations(persistTo);
const port = Number(process.env.EVAL_PORT ?? 8833);
// --settings '<json>' merges into the Worker's settings (e.g. {"knowledge":{"search":{"perRoot":0}}}),
// for experiments that go through the production routes (vue-docs) rather than --options.
const given = flags.settings ? JSON.parse(flags.settings) : {};
const extra = remoteAi ? mergeSettings(REMOTE_AI_SETTINGS, given) : given;
let config = {
  ...extra,
  follow: { groups: [] },
  knowledge: {
    ...(extra.knowledge ?? {}),
    ...(flags["no-vectors"] ? { embeddings: { read: null, write: [] } } : {}),
  },
};
const localModel = flags["local-model"] === true ? await startLocalModel() : null;
if (localModel) config = JSON.parse(withLocalModel(JSON.stringify(config), localModel.url));

async function startLocalModel() {
  const service = await startLocalEmbeddings({
    port: Number(process.env.EVAL_EMBEDDINGS_PORT ?? 0),
    threads: Number(process.env.EVAL_EMBEDDINGS_THREADS ?? 1),
    // Runs embed the same corpora again and again: vectors computed once are read back
    // (EVAL_VECTOR_CACHE=off computes every one; a path puts the file elsewhere).
    vectorCache:
      process.env.EVAL_VECTOR_CACHE === "off" ? null : (process.env.EVAL_VECTOR_CACHE ?? vectorCacheFile()),
  });
  if (!service.url) {
    console.error(`--local-model: ${service.unavailable}`);
    process.exit(2);
  }
  return service;
}
const ADMIN_TOKEN = "eval-admin";
// The Worker runs from a bundle built now (scripts/lib/wrangler.mjs freezeWorker): an edit,
// checkout or install in the tree during a long run must not restart it mid-request.
const frozen = freezeWorker(`${persistTo}-worker`, remoteAi ? remoteAiConfig() : undefined);
const server = await startWranglerDev({
  port,
  persistTo,
  quiet: true,
  env: frozenWranglerEnv,
  extraArgs: [
    ...frozen,
    // EVAL_INSPECTOR_PORT: a fixed devtools port, so parallel runs on one machine never collide.
    ...(process.env.EVAL_INSPECTOR_PORT ? ["--inspector-port", process.env.EVAL_INSPECTOR_PORT] : []),
  ],
  vars: {
    QQ_BOT_APPID: "102000000",
    QQ_BOT_SECRET: "evalSecret0123456789abcdefghijklm",
    ADMIN_TOKEN,
    AKASHA_CONFIG: JSON.stringify(config),
    // --remote-ai: a Workers AI chat model too, so follow-ups take the query-rewrite path.
    ...(remoteAi
      ? { AI_CHAT_MODEL: typeof flags["chat-model"] === "string" ? flags["chat-model"] : REMOTE_CHAT_MODEL }
      : {}),
  },
});
const base = `http://127.0.0.1:${port}`;

async function post(route, body) {
  const res = await fetch(`${base}/dev/eval${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${route} answered ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

async function importDocuments(collection, docs, chunkSize, chunkOverlap) {
  let ms = 0;
  let passages = 0;
  for (let i = 0; i < docs.length; i += 100) {
    const r = await post("/documents", {
      collection,
      chunkSize,
      chunkOverlap,
      documents: docs.slice(i, i + 100),
    });
    if (r.failed.length > 0) throw new Error(`import failed: ${JSON.stringify(r.failed.slice(0, 3))}`);
    ms += r.ms;
    passages += r.passages;
  }
  return { ms, passages };
}

async function refreshEmbeddings() {
  // A model of meaning embeds a few passages a second on this CPU: passes small enough to answer
  // well within the client's 300 s wait for headers.
  const limit = localModel ? 200 : 5000;
  for (let i = 0; i < 10_000; i++) {
    const r = await post("/refresh", { limit });
    if (r.reports.some((x) => x.error)) throw new Error(JSON.stringify(r.reports));
    if (r.reports.every((x) => x.done)) return;
  }
}

async function searchAll(mode, queries, { limit = 10, profile = "search", variant = {} } = {}) {
  const out = new Map();
  const weight =
    variant.vectorWeight ?? (flags["vector-weight"] ? Number(flags["vector-weight"]) : undefined);
  for (let i = 0; i < queries.length; i += 100) {
    const r = await post("/search", {
      mode,
      limit,
      profile,
      ...(weight !== undefined ? { vectorWeight: weight } : {}),
      options: { ...overrides, ...(variant.options ?? {}) },
      queries: queries.slice(i, i + 100),
    });
    for (const q of r.results) out.set(q.id, q.items);
  }
  return out;
}

/**
 * --split tune|hold: half of a dev file, by the second byte of sha1(id) (the dev/held-out rule of
 * the data uses the first): tune settings on `tune`, confirm them once on `hold`.
 */
function splitFilter(idOf) {
  const split = flags.split;
  if (split === undefined) return () => true;
  if (split !== "tune" && split !== "hold") throw new Error("--split must be tune or hold");
  return (q) =>
    createHash("sha1")
      .update(String(idOf(q)), "utf8")
      .digest()[1] <
      128 ===
    (split === "tune");
}

/** --variants, or with the local model the lexical-only pipeline (vector weight 0). */
function variantsGiven() {
  if (flags.variants) return JSON.parse(flags.variants);
  return localModel ? [{ name: "lexical", vectorWeight: 0 }] : [];
}

/**
 * The pipeline as configured, and beside it in the same run (same import, same vectors) each
 * variant of --variants '[{"name","vectorWeight","options"}]'; with the local model, by default,
 * the lexical-only pipeline (vector weight 0). `score(results)` → metrics.
 */
async function pipelineAndVariants(queries, score, searchOptions = {}) {
  const results = await searchAll("pipeline", queries, searchOptions);
  const given = variantsGiven();
  const variants = {};
  for (const [i, variant] of given.entries())
    variants[variant.name ?? `v${i}`] = score(
      await searchAll("pipeline", queries, { ...searchOptions, variant }),
    );
  return { results, pipeline: score(results), ...(given.length ? { variants } : {}) };
}

/** --dump <file>: every query with both result lists, for error analysis. */
function dump(queries, pipeline, baseline) {
  if (typeof flags.dump !== "string") return;
  const lines = queries.map((q) =>
    JSON.stringify({ query: q, pipeline: pipeline.get(q.id) ?? [], baseline: baseline.get(q.id) ?? [] }),
  );
  writeFileSync(flags.dump, `${lines.join("\n")}\n`);
}

/** `relevant(item)` → boolean per returned item; hit@k, MRR@10. */
function hitMetrics(results, queries, relevant) {
  const hit = { 1: [], 5: [], 10: [] };
  const rr = [];
  for (const q of queries) {
    const items = results.get(q.id) ?? [];
    const first = items.slice(0, 10).findIndex((it) => relevant(q, it));
    for (const k of [1, 5, 10]) hit[k].push(first >= 0 && first < k ? 1 : 0);
    rr.push(first >= 0 ? 1 / (first + 1) : 0);
  }
  return {
    "hit@1": round(mean(hit[1])),
    "hit@5": round(mean(hit[5])),
    "hit@10": round(mean(hit[10])),
    "MRR@10": round(mean(rr)),
  };
}

async function evalCmrc() {
  const chunkSize = Number(flags["chunk-size"] ?? 200);
  const passages = readJsonl("passages");
  const queries = readJsonl("queries")
    .filter(splitFilter((q) => q.qid))
    .slice(0, maxQueries)
    .map((q) => ({ ...q, id: q.qid, text: q.query, scopes: ["collection:cmrc2018"] }));
  const imported = await importDocuments(
    "cmrc2018",
    passages.map((p) => ({ source: `${p.pid}.txt`, title: p.title || null, text: p.text })),
    chunkSize,
    Number(flags["chunk-overlap"] ?? 40),
  );
  await refreshEmbeddings();
  await post("/baseline-index", { scopes: ["collection:cmrc2018"] });
  const relevant = (q, it) => q.answers.some((a) => it.raw_text.includes(a));
  const { results: pipelineResults, ...ours } = await pipelineAndVariants(queries, (r) =>
    hitMetrics(r, queries, relevant),
  );
  const baselineResults = await searchAll("baseline", queries);
  dump(queries, pipelineResults, baselineResults);
  const baseline = hitMetrics(baselineResults, queries, relevant);
  return {
    dataset: "cmrc2018",
    queries: queries.length,
    documents: passages.length,
    passages: imported.passages,
    chunk_size: chunkSize,
    ...ours,
    baseline,
  };
}

async function evalLocomo() {
  // Both paths in one run: the live message log through history_search's code
  // (locomo-live.mjs, `live`), and the conversation trees below (`pipeline`, `baseline`),
  // which the live log does not build yet. --live-only skips the trees.
  const live = await evalLocomoLive({
    post,
    readJsonl,
    maxQueries,
    split: splitFilter((q) => q.qid),
    liveDump: typeof flags["live-dump"] === "string" ? flags["live-dump"] : undefined,
  });
  if (flags["live-only"]) return { dataset: "locomo", live };
  const turns = readJsonl("turns");
  const byConv = new Map();
  for (const t of turns) {
    if (!byConv.has(t.conv_id)) byConv.set(t.conv_id, new Map());
    const sessions = byConv.get(t.conv_id);
    if (!sessions.has(t.session))
      sessions.set(t.session, { id: `S${t.session}`, label: `Session ${t.session} · ${t.date}`, turns: [] });
    sessions.get(t.session).turns.push({
      id: t.dia_id,
      speaker: t.speaker,
      text: t.text,
      ...(t.image_caption ? { attachment: t.image_caption } : {}),
    });
  }
  for (const [conv, sessions] of byConv) {
    await post("/conversation", { chat: `locomo:group:${conv}`, sessions: [...sessions.values()] });
  }
  await refreshEmbeddings();
  await post("/baseline-index", { scopes: [...byConv.keys()].map((c) => `chat:locomo:group:${c}`) });
  const questions = readJsonl("questions")
    .filter((q) => !q.adversarial && q.evidence.length > 0)
    .filter(splitFilter((q) => q.qid))
    .slice(0, maxQueries)
    .map((q) => ({ ...q, id: q.qid, text: q.question, scopes: [`chat:locomo:group:${q.conv_id}`] }));
  const keysOf = (it) => {
    const m = JSON.parse(it.metadata || "{}");
    return m.turn_id ? [m.turn_id] : [];
  };
  const gold = (q) => q.evidence;
  const { results: pipelineResults, ...ours } = await pipelineAndVariants(
    questions,
    (r) => recallMetrics(r, questions, gold, keysOf, [5, 10]),
    { profile: "history" },
  );
  const baselineResults = await searchAll("baseline", questions);
  dump(questions, pipelineResults, baselineResults);
  const baseline = recallMetrics(baselineResults, questions, gold, keysOf, [5, 10]);
  const by_category = byCategory(questions, (subset) => ({
    pipeline: recallMetrics(pipelineResults, subset, gold, keysOf, [5, 10]),
    baseline: recallMetrics(baselineResults, subset, gold, keysOf, [5, 10]),
  }));
  return {
    dataset: "locomo",
    questions: questions.length,
    turns: turns.length,
    ...ours,
    baseline,
    by_category,
    live,
  };
}

async function evalKdconv() {
  const contextOnly = flags["context-only"] === true;
  const passages = readJsonl("passages");
  const queries = readJsonl("queries")
    .map((q) => ({
      ...q,
      id: q.qid,
      text: (contextOnly ? q.context : [...q.context, q.query]).join("\n"),
      scopes: ["collection:kdconv"],
    }))
    .filter((q) => q.text.trim() !== "")
    .filter(splitFilter((q) => q.conv_id))
    .slice(0, maxQueries);
  await importDocuments(
    "kdconv",
    passages.map((p) => ({ source: `${p.pid}.txt`, title: p.title, text: p.text })),
    Number(flags["chunk-size"] ?? 800),
    Number(flags["chunk-overlap"] ?? 80),
  );
  await refreshEmbeddings();
  await post("/baseline-index", { scopes: ["collection:kdconv"] });
  const keysOf = (it) => [it.source_id.replace(/\.txt$/, "")];
  const gold = (q) => q.positive_pids;
  const { results: pipelineResults, ...ours } = await pipelineAndVariants(queries, (r) =>
    recallMetrics(r, queries, gold, keysOf, [1, 5, 10]),
  );
  const baselineResults = await searchAll("baseline", queries);
  dump(queries, pipelineResults, baselineResults);
  const baseline = recallMetrics(baselineResults, queries, gold, keysOf, [1, 5, 10]);
  return {
    dataset: "kdconv",
    context_only: contextOnly,
    queries: queries.length,
    passages: passages.length,
    ...ours,
    baseline,
  };
}

async function evalVueDocsSections() {
  return evalVueDocs({
    base,
    token: ADMIN_TOKEN,
    docsDir: requireFlag("docs"),
    questionsFile: typeof flags.questions === "string" ? flags.questions : DEFAULT_QUESTIONS,
    chunkSize: Number(flags["chunk-size"] ?? 800),
    chunkOverlap: Number(flags["chunk-overlap"] ?? 80),
    dumpTo: typeof flags.dump === "string" ? flags.dump : null,
  });
}

try {
  const started = Date.now();
  process.on("uncaughtException", (e) => {
    console.error(server.output().split("\n").slice(-30).join("\n"));
    throw e;
  });
  const result = await DATASETS[dataset]();
  console.log(
    JSON.stringify({
      ...result,
      ...(flags.options ? { options: overrides } : {}),
      seconds: Math.round((Date.now() - started) / 1000),
    }),
  );
  const below = flags.require ? belowRequired(result, JSON.parse(flags.require)) : [];
  for (const line of below) console.error(`below the required quality: ${line}`);
  if (below.length > 0) process.exitCode = 1;
} finally {
  server.stop();
  localModel?.stop();
}
