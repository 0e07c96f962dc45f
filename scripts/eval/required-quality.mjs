// The quality an evaluation must keep (`npm run eval -- <set> --require '<json>'`, and CI's
// guard, scripts/eval/ci.mjs): minimums on metrics of the printed result, named by dotted paths.

/**
 * Each dotted path of `result` must be a number of at least its minimum. A path the result
 * lacks fails too, so a renamed or vanished metric cannot pass unseen. Returns what fell short.
 */
export function belowRequired(result, required) {
  const out = [];
  for (const [key, min] of Object.entries(required)) {
    const value = key.split(".").reduce((v, k) => (v && typeof v === "object" ? v[k] : undefined), result);
    if (typeof value !== "number") out.push(`${key} is missing`);
    else if (value < min) out.push(`${key} = ${value} < ${min}`);
  }
  return out;
}
