// (c) Context preview latency with a large memory: BENCH_MEMORY_ITEMS items (default 100,000)
// over BENCH_MEMORY_CHATS chats (default 1,000; every 10th item global), then the preview of
// sampled chats next to the bare FTS5 MATCH for the same terms, same run, same samples —
// over HTTP (what an admin waits for) and timed inside the Worker. Hard scope first, then the
// same samples with memory.retrieval.softScope on.
import { percentile, round } from "./stats.mjs";

const ITEMS = Number(process.env.BENCH_MEMORY_ITEMS ?? 100_000);
const CHATS = Number(process.env.BENCH_MEMORY_CHATS ?? 1000);
const SAMPLES = Number(process.env.BENCH_MEMORY_SAMPLES ?? 400);
const PER_SEED = 5000;

const QUERIES = [
  "我喜欢什么",
  "周末去爬山吗",
  "你还记得我喜欢的火锅吗",
  "Vue 和 React 哪个好",
  "最近在学什么语言",
  "下班后一起打篮球",
  "推荐一部科幻小说",
  "群活动是什么时候",
  "咖啡还是奶茶",
  "我养的猫叫什么",
  "报名截止到什么时候",
  "有没有人喜欢钓鱼",
];

async function post(url, body, headers = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

function samples() {
  return Array.from({ length: SAMPLES }, (_, i) => {
    const chat = (i * 7919) % CHATS;
    const key = chat % 2 === 0 ? `bench:private:u${chat}` : `bench:group:g${chat}`;
    return {
      chat: key,
      sender: chat % 2 === 0 ? `u${chat}` : `m${i % 13}`,
      text: QUERIES[i % QUERIES.length],
    };
  });
}

function summary(values) {
  return { p50: round(percentile(values, 50)), p95: round(percentile(values, 95)) };
}

async function pass(base, vars, list) {
  const auth = { authorization: `Bearer ${vars.ADMIN_TOKEN}` };
  // Warm-up: every chat object used is created and every query shape compiled once.
  for (const s of list) {
    await post(`${base}/dev/bench/memory/preview`, s);
    await post(`${base}/dev/bench/memory/bare`, { text: s.text });
  }
  const http = { preview: [], bare: [] };
  const inWorker = { preview: [], bare: [] };
  let recalled = 0;
  let bareHits = 0;
  let soft = null;
  for (const [i, s] of list.entries()) {
    // Alternate which runs first so neither benefits from the other's caches.
    const order = i % 2 === 0 ? ["preview", "bare"] : ["bare", "preview"];
    for (const which of order) {
      if (which === "preview") {
        const t = performance.now();
        const p = await post(`${base}/api/context/preview`, s, auth);
        http.preview.push(performance.now() - t);
        recalled += p.recalled.length;
        soft = p.scopes.softScope;
        inWorker.preview.push((await post(`${base}/dev/bench/memory/preview`, s)).ms);
      } else {
        const t = performance.now();
        const b = await post(`${base}/dev/bench/memory/bare`, { text: s.text });
        http.bare.push(performance.now() - t);
        bareHits += b.hits;
        inWorker.bare.push((await post(`${base}/dev/bench/memory/bare`, { text: s.text })).ms);
      }
    }
  }
  const hp = summary(http.preview);
  const hb = summary(http.bare);
  const wp = summary(inWorker.preview);
  const wb = summary(inWorker.bare);
  return {
    soft_scope: soft,
    http_preview_ms: hp,
    http_bare_fts_ms: hb,
    http_p95_ratio: round(hp.p95 / hb.p95),
    worker_preview_ms: wp,
    worker_bare_fts_ms: wb,
    worker_p95_ratio: round(wp.p95 / wb.p95),
    avg_recalled: round(recalled / list.length, 1),
    avg_bare_hits: round(bareHits / list.length, 1),
  };
}

export async function run({ base, vars }) {
  const started = performance.now();
  for (let offset = 0; offset < ITEMS; offset += PER_SEED) {
    await post(`${base}/dev/bench/memory/seed`, {
      offset,
      n: Math.min(PER_SEED, ITEMS - offset),
      chats: CHATS,
    });
  }
  const seedSeconds = (performance.now() - started) / 1000;
  const list = samples();
  await post(`${base}/dev/bench/memory/settings`, { memory: { retrieval: { softScope: false } } });
  const hard = await pass(base, vars, list);
  await post(`${base}/dev/bench/memory/settings`, { memory: { retrieval: { softScope: true } } });
  const soft = await pass(base, vars, list);
  return {
    items: ITEMS,
    chats: CHATS,
    samples: SAMPLES,
    seed_s: round(seedSeconds, 1),
    hard_scope: hard,
    soft_scope: soft,
  };
}
