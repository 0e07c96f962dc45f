// (b) Message-log ingest throughput: the batched flush (200 rows per D1 batch) against one
// INSERT per message, same rows, same run. Timed inside the Worker by /dev/bench/ingest.
import { round } from "./stats.mjs";

const MESSAGES = Number(process.env.BENCH_INGEST_MESSAGES ?? 5000);
const PER_CALL = 1000;

async function ingest(base, mode, chat) {
  let ms = 0;
  for (let offset = 0; offset < MESSAGES; offset += PER_CALL) {
    const n = Math.min(PER_CALL, MESSAGES - offset);
    const res = await fetch(`${base}/dev/bench/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ mode, n, chat, offset }),
    });
    if (!res.ok) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
    ms += (await res.json()).ms;
  }
  return { ms, perSecond: (MESSAGES / ms) * 1000 };
}

export async function run({ base }) {
  // Warm-up so that neither mode pays for first-use costs.
  await ingest(base, "batched", "bench:group:warmup").catch(() => {});
  const single = await ingest(base, "single", "bench:group:single");
  const batched = await ingest(base, "batched", "bench:group:batched");
  return {
    messages: MESSAGES,
    batched_msgs_per_s: round(batched.perSecond, 0),
    single_insert_msgs_per_s: round(single.perSecond, 0),
    batched_ms: round(batched.ms, 0),
    single_insert_ms: round(single.ms, 0),
    speedup: round(batched.perSecond / single.perSecond, 1),
  };
}
