// (f) The local model of meaning: query embedding latency on the local embedding service
// (bge-small-zh-v1.5 on the CPU, `POST /v1/embeddings` as the Worker calls it) one query per
// request and 16 per request, next to the hashed n-gram embedder on the same queries in the
// same run (in process: what that embedder costs the Worker) and the ratio; then what history
// search's rerank adds to a search (decision 0490): the question and 100 matches through the
// production reranker and OpenAI-compatible embedder, next to the question alone; then import
// throughput through the production import path without embeddings, with the hashed vectors
// and with the model's.
//
// The runner starts the service (scripts/model/local-service.mjs) and names it to the Worker as
// the `bge-small-zh` model, without making it the read or write model.
import { importTs } from "../lib/ts-import.mjs";
import { BGE_SMALL_ZH } from "../model/pinned.mjs";
import { percentile, round } from "./stats.mjs";

const QUERIES = Number(process.env.BENCH_EMBED_QUERIES ?? 100);
const BATCH = 16;
const IMPORT_DOCUMENTS = Number(process.env.BENCH_EMBED_DOCUMENTS ?? 20);
const RERANKS = Number(process.env.BENCH_EMBED_RERANKS ?? 20);
/** The matches a history search hands its reranker at most (HISTORY_RERANK_DEPTH). */
const RERANK_MATCHES = 100;
const PER_DOCUMENT = 10;

/** Questions as members ask them: a stem and a topic, 8–30 characters. */
const STEMS = ["怎么", "为什么", "能不能", "如何在", "有没有办法让", "请问"];
const TOPICS = [
  "切换标签页的时候保留组件里填的内容",
  "让列表渲染得更快一点",
  "在子组件里修改父组件传进来的值",
  "把一个很长的表单拆成几个步骤",
  "监听路由变化后重新请求数据",
  "给按钮加上防抖",
  "全局注册一个自定义指令",
  "在服务端渲染时读取 cookie",
  "用 KeepAlive 缓存页面",
  "处理异步组件加载失败",
];
const queryText = (i) =>
  `${STEMS[i % STEMS.length]}${TOPICS[Math.floor(i / STEMS.length) % TOPICS.length]}${i >= 60 ? `（第 ${i} 次）` : ""}`;

async function embedRequest(url, input) {
  const res = await fetch(`${url}/embeddings`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: BGE_SMALL_ZH.servedAs, input }),
  });
  if (!res.ok) throw new Error(`embeddings answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return res.json();
}

const stats = (ms) => ({ p50_ms: round(percentile(ms, 50), 3), p95_ms: round(percentile(ms, 95), 3) });

async function queryLatency(url) {
  const texts = Array.from({ length: QUERIES }, (_, i) => BGE_SMALL_ZH.queryPrefix + queryText(i));
  await embedRequest(url, texts.slice(0, 4)); // warm-up: the first run allocates the session's buffers
  const single = [];
  for (const t of texts) {
    const started = performance.now();
    await embedRequest(url, t);
    single.push(performance.now() - started);
  }
  const batched = [];
  for (let i = 0; i < texts.length; i += BATCH) {
    const started = performance.now();
    await embedRequest(url, texts.slice(i, i + BATCH));
    batched.push(performance.now() - started);
  }
  const { LocalHashEmbedder } = await importTs("src/adapters/local/local-hash-embedder.ts");
  const hash = new LocalHashEmbedder(512);
  const baseline = [];
  for (let i = 0; i < QUERIES; i++) {
    const started = performance.now();
    hash.embedOne(queryText(i));
    baseline.push(performance.now() - started);
  }
  const s = stats(single);
  const h = stats(baseline);
  return {
    queries: QUERIES,
    service_single: s,
    service_batch_of_16: { ...stats(batched), per_query_ms: round(percentile(batched, 50) / BATCH, 3) },
    hash_in_process: h,
    ratio_single_p50: round(s.p50_ms / Math.max(h.p50_ms, 0.001), 0),
  };
}

/**
 * A history search's rerank as the Worker runs it against the service: each of RERANKS searches
 * reranks 100 lines of the benches' chatter (each made unique, so nothing is answered twice),
 * next to embedding the same question alone.
 */
async function historyRerank(url) {
  const { EmbeddingReranker } = await importTs("src/domain/retrieval/embedding-reranker.ts");
  const { OpenAiCompatibleEmbedder } = await importTs("src/adapters/openai/openai-compatible-embedder.ts");
  const { benchLine } = await importTs("src/workers/dev/bench-lines.ts");
  const embedder = new OpenAiCompatibleEmbedder({
    baseUrl: url,
    apiKey: "",
    model: { id: BGE_SMALL_ZH.servedAs, version: "bench", dims: BGE_SMALL_ZH.dims },
    queryPrefix: BGE_SMALL_ZH.queryPrefix,
    fetch,
  });
  const reranker = new EmbeddingReranker(embedder);
  const rerank = [];
  const question = [];
  for (let i = 0; i < RERANKS; i++) {
    const matches = Array.from({ length: RERANK_MATCHES }, (_, k) => `${benchLine(k, i)}（${i}-${k}）`);
    let started = performance.now();
    const scored = await reranker.rerank(queryText(i), matches);
    if (!scored.ok) throw new Error(`rerank failed: ${scored.error.message}`);
    rerank.push(performance.now() - started);
    started = performance.now();
    const alone = await embedder.embed([`${queryText(i)}（${i}）`], "query");
    if (!alone.ok) throw new Error(`query failed: ${alone.error.message}`);
    question.push(performance.now() - started);
  }
  const r = stats(rerank);
  const q = stats(question);
  return {
    searches: RERANKS,
    matches: RERANK_MATCHES,
    rerank: r,
    question_alone: q,
    ratio_p50: round(r.p50_ms / Math.max(q.p50_ms, 0.001), 1),
  };
}

async function seed(base, collection, options) {
  const res = await fetch(`${base}/dev/bench/kb-seed`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      collection,
      offset: 0,
      documents: IMPORT_DOCUMENTS,
      passagesPerDocument: PER_DOCUMENT,
      ...options,
    }),
  });
  if (!res.ok) throw new Error(`kb-seed answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const r = await res.json();
  const failed = (r.reports ?? []).filter((x) => x.error);
  if (failed.length > 0) throw new Error(`embedding failed: ${JSON.stringify(failed)}`);
  const seconds = (r.importMs + r.embedMs) / 1000;
  return {
    passages: r.passages,
    passages_per_s: round(r.passages / seconds, 1),
    embed_ms: round(r.embedMs, 0),
  };
}

export async function run({ base, embeddings }) {
  if (!embeddings)
    throw new Error("the embeddings bench needs the local embedding service (npm run model:fetch)");
  const latency = await queryLatency(embeddings);
  const history_rerank = await historyRerank(embeddings);
  const plain = await seed(base, "bench-import-plain", { embed: false });
  const hashed = await seed(base, "bench-import-hash", { embed: true, embedWith: "local" });
  const model = await seed(base, "bench-import-bge", { embed: true, embedWith: "bge-small-zh" });
  return {
    ...latency,
    history_rerank,
    import_without_embeddings: plain,
    import_with_hash_vectors: hashed,
    import_with_bge_small_zh: model,
    import_ratio_bge_to_plain: round(plain.passages_per_s / model.passages_per_s, 1),
  };
}
