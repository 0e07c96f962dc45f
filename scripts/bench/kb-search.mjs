// (c) Knowledge-base search: kb_search (the whole retrieval pipeline: FTS5 + local vectors
// + fusion + re-check + expansion) p50/p95 at 1k, 10k and 100k passages in local D1, next to
// the bare FTS5 query it starts from, same collection, same queries, same run. Also import
// throughput (passages/s, including FTS rows) and local embedding throughput. Finally the 1k
// collection is searched again while the database holds all 111k passages, to see what the
// other collections cost a small one (the per-collection token-namespace question).
import { percentile, round } from "./stats.mjs";

const SIZES = (process.env.BENCH_KB_SIZES ?? "1000,10000,100000").split(",").map(Number);
const QUERIES = Number(process.env.BENCH_KB_QUERIES ?? 100);
const PER_DOC = 10;

async function post(base, path, body) {
  const res = await fetch(`${base}/dev/bench${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return res.json();
}

/** Query specs: the server cuts each query out of a seeded passage (6–12 characters). */
function queries(n, seed, size) {
  const out = [];
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 48271) % 2147483647;
    out.push({ passage: x % size, length: 6 + (x % 7) });
  }
  return out;
}

async function seed(base, collection, passages, embed) {
  const docs = passages / PER_DOC;
  let importMs = 0;
  let embedMs = 0;
  let seeded = 0;
  for (let offset = 0; offset < docs; offset += 200) {
    const r = await post(base, "/kb-seed", {
      collection,
      offset,
      documents: Math.min(200, docs - offset),
      passagesPerDocument: PER_DOC,
      embed,
    });
    importMs += r.importMs;
    embedMs += r.embedMs;
    seeded += r.passages;
  }
  return { seeded, importMs, embedMs };
}

/**
 * kb_search and the bare FTS query over the same queries, interleaved in slices of ten (each
 * slice run by both, the first mode alternating), so both see the same machine: timed one after
 * the other, a drift in load or cache between the two halves showed up as a ratio.
 */
async function latencies(base, collection, qs) {
  // Warm-up: first queries pay for compilation and the vector cache.
  for (const mode of ["fts", "pipeline"])
    await post(base, "/kb-search", { collection, mode, queries: qs.slice(0, 10) });
  const times = { fts: [], pipeline: [] };
  for (let i = 0; i < qs.length; i += 10) {
    const slice = qs.slice(i, i + 10);
    const order = (i / 10) % 2 === 0 ? ["fts", "pipeline"] : ["pipeline", "fts"];
    for (const mode of order) {
      const { latencies: ms } = await post(base, "/kb-search", { collection, mode, queries: slice });
      times[mode].push(...ms);
    }
  }
  const summary = (ms) => ({ p50: round(percentile(ms, 50)), p95: round(percentile(ms, 95)) });
  return { fts: summary(times.fts), pipeline: summary(times.pipeline) };
}

/** kb_search over the bare FTS query of the same run (the "≤ 2×" is this ratio). */
const ratios = (pipeline, fts) => ({
  ratio_p50: round(pipeline.p50 / Math.max(fts.p50, 1e-9)),
  ratio_p95: round(pipeline.p95 / Math.max(fts.p95, 1e-9)),
});

export async function run({ base }) {
  const results = {};
  let totalPassages = 0;
  let totalImportMs = 0;
  let totalEmbedMs = 0;
  for (const size of SIZES) {
    const collection = `bench-kb-${size}`;
    // Local embeddings are timed on the smallest set only: the local model is fused at weight
    // 0 by default (docs/decisions/0002-local-embedder-fused-at-weight-zero.md), so kb_search
    // does not read them, and 100k vectors would
    // only slow the seeding.
    const embed = size === SIZES[0];
    const s = await seed(base, collection, size, embed);
    totalPassages += s.seeded;
    totalImportMs += s.importMs;
    if (embed) {
      totalEmbedMs = s.embedMs;
      results.local_embed_passages_per_s = round((s.seeded / s.embedMs) * 1000, 0);
    }
    const qs = queries(QUERIES, size, size);
    const { fts, pipeline } = await latencies(base, collection, qs);
    // BENCH_KB_PROFILE=1: where the largest collection's kb_search spends its time, per statement.
    // `split`: per search, the time with D1 in flight, the rest, round trips and rows read.
    const profiled =
      process.env.BENCH_KB_PROFILE && size === Math.max(...SIZES)
        ? await post(base, "/kb-search", { collection, mode: "profile", queries: qs })
        : undefined;
    const profile = profiled
      ? { split: profiled.split, statements: profiled.statements.slice(0, 12) }
      : undefined;
    results[`${size}`] = {
      ...(profile ? { profile } : {}),
      passages: s.seeded,
      kb_search_p50_ms: pipeline.p50,
      kb_search_p95_ms: pipeline.p95,
      fts_p50_ms: fts.p50,
      fts_p95_ms: fts.p95,
      ...ratios(pipeline, fts),
      import_passages_per_s: round((s.seeded / s.importMs) * 1000, 0),
    };
  }
  const small = SIZES[0];
  const qs = queries(QUERIES, small, small);
  const again = await latencies(base, `bench-kb-${small}`, qs);
  return {
    sizes: results,
    [`${small}_again_with_${totalPassages}_in_db`]: {
      kb_search_p50_ms: again.pipeline.p50,
      kb_search_p95_ms: again.pipeline.p95,
      fts_p50_ms: again.fts.p50,
      fts_p95_ms: again.fts.p95,
      ...ratios(again.pipeline, again.fts),
    },
    import_passages_per_s: round((totalPassages / totalImportMs) * 1000, 0),
    local_embed_ms_smallest: round(totalEmbedMs, 0),
  };
}
