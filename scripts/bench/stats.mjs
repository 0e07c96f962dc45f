// Percentiles over latency samples (nearest-rank).
export function percentile(samples, p) {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** A whole number from the environment, at least `min`, or `fallback` when it is unset. */
export function envInt(name, fallback, min = 1) {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be a whole number of at least ${min}`);
  return v;
}

export const round = (x, digits = 2) => (x === null ? null : Number(x.toFixed(digits)));

/** Runs `task(i)` for i in [0, n) with at most `concurrency` in flight; returns per-task ms. */
export async function timed(n, concurrency, task) {
  const latencies = new Array(n);
  let next = 0;
  async function worker() {
    while (next < n) {
      const i = next++;
      const started = performance.now();
      await task(i);
      latencies[i] = performance.now() - started;
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, wallMs: performance.now() - started };
}
