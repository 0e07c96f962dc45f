// Folds repeated runs of one benchmark into medians with their spread: every numeric leaf of
// the runs' results becomes `{ median, min, max }`, so a number is never read off a single run.
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Results of the same benchmark from several runs → one object of medians and ranges. */
export function aggregate(runs) {
  const first = runs[0];
  if (typeof first === "number") {
    const values = runs.filter((v) => typeof v === "number");
    const min = Math.min(...values);
    const max = Math.max(...values);
    if (min === max) return min; // a setting (message count, rate), not a measurement
    return {
      median: Number(median(values).toFixed(2)),
      min,
      max,
    };
  }
  if (isObject(first)) {
    const out = {};
    for (const key of Object.keys(first)) out[key] = aggregate(runs.map((r) => r?.[key]));
    return out;
  }
  // Strings, booleans, arrays: the same in every run (settings), or listed per run if not.
  const distinct = [...new Set(runs.map((v) => JSON.stringify(v)))];
  return distinct.length === 1 ? first : runs;
}
