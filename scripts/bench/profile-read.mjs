// Person profiles' read time (docs/memory.md#person-profiles): BENCH_PROFILE_PERSONS persons
// (default 200) with BENCH_PROFILE_ITEMS memory items each (default 400) over their person scope
// and two linked accounts (the reads are those of a turn from the first: person and account), then BENCH_PROFILE_SAMPLES samples (default 100) of 10 persons'
// reads each, timed inside the Worker per read: the warm read (a profile saved at the current version: one statement),
// the cold read (none saved: build and save) and the same run's baseline, the person's items
// through listActive as a turn without a profile would read them. The three alternate order
// per sample; the audience alternates between the group's (public) and the person's own.
import { percentile, round } from "./stats.mjs";

const PERSONS = Number(process.env.BENCH_PROFILE_PERSONS ?? 200);
const ITEMS = Number(process.env.BENCH_PROFILE_ITEMS ?? 400);
const SAMPLES = Number(process.env.BENCH_PROFILE_SAMPLES ?? 100);
// Reads per sample, timed as one span: the Worker's clock moves in whole milliseconds.
const PER_SAMPLE = 10;
const MODES = ["warm", "cold", "baseline"];

async function post(url, body) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

const summary = (values) => ({
  p50: round(percentile(values, 50), 3),
  p95: round(percentile(values, 95), 3),
});

export async function run({ base }) {
  const started = performance.now();
  for (let person = 0; person < PERSONS; person++) {
    await post(`${base}/dev/bench/profile/seed`, { person, items: ITEMS });
  }
  const seedSeconds = (performance.now() - started) / 1000;
  const samples = Array.from({ length: SAMPLES }, (_, i) => ({
    persons: Array.from({ length: PER_SAMPLE }, (_, k) => ((i * PER_SAMPLE + k) * 7919) % PERSONS),
    audience: i % 2 === 0 ? "public" : "own",
  }));
  // Warm-up: every statement shape compiled once; the round trips and rows of each mode counted.
  const trips = {};
  const rows = {};
  for (const mode of MODES) {
    for (const audience of ["public", "own"]) {
      const r = await post(`${base}/dev/bench/profile/read`, { persons: [0], audience, mode, count: true });
      trips[`${mode}_${audience}`] = r.trips;
      rows[`${mode}_${audience}`] = r.rows_read;
    }
  }
  for (const s of samples.slice(0, 20)) {
    for (const mode of MODES) await post(`${base}/dev/bench/profile/read`, { ...s, mode });
  }
  const ms = { warm: [], cold: [], baseline: [] };
  let chars = 0;
  for (const [i, s] of samples.entries()) {
    const order = MODES.map((_, k) => MODES[(i + k) % MODES.length]);
    for (const mode of order) {
      const r = await post(`${base}/dev/bench/profile/read`, { ...s, mode });
      ms[mode].push(r.ms);
      if (mode === "warm") chars += r.chars;
    }
  }
  const warm = summary(ms.warm);
  const cold = summary(ms.cold);
  const baseline = summary(ms.baseline);
  return {
    persons: PERSONS,
    items_per_person: ITEMS,
    samples: SAMPLES,
    reads_per_sample: PER_SAMPLE,
    seed_s: round(seedSeconds, 1),
    warm_ms: warm,
    cold_ms: cold,
    baseline_list_active_ms: baseline,
    warm_p50_ratio: round(warm.p50 / baseline.p50),
    warm_p95_ratio: round(warm.p95 / baseline.p95),
    cold_p50_ratio: round(cold.p50 / baseline.p50),
    round_trips: trips,
    rows_read: rows,
    avg_profile_chars: round(chars / SAMPLES, 1),
  };
}
