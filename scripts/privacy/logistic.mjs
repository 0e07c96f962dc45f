// The logistic regression both trained readers of privacy (requests and credential values) learn
// with: seeded stochastic gradient descent on the log loss over hashed feature ids, and the file
// their weights are kept in (src/domain/privacy/packed-weights.ts reads it). Seeded, so the same
// rows give the same weights and `--check` can tell a stale file.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";

/** A seeded linear congruential generator, so that a run can be repeated. */
export function seeded(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
}

export function shuffle(rows, random) {
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  return rows;
}

/**
 * Stochastic gradient descent on the log loss, each step scaled by the row's feature count.
 * Rows are `{ ids, y, weight }`; `shape` is `{ features, epochs, rate, l2 }`.
 */
export function train(rows, shape) {
  const w = new Float64Array(shape.features);
  let bias = 0;
  const random = seeded(7);
  const order = [...rows];
  for (let epoch = 0; epoch < shape.epochs; epoch++) {
    for (const r of shuffle(order, random)) {
      let sum = bias;
      for (const id of r.ids) sum += w[id];
      const step = ((1 / (1 + Math.exp(-sum)) - r.y) * r.weight * shape.rate) / Math.sqrt(r.ids.length);
      for (const id of r.ids) w[id] -= step + shape.l2 * w[id];
      bias -= step;
    }
  }
  return { w, bias };
}

export function probability(model, ids) {
  let sum = model.bias;
  for (const id of ids) sum += model.w[id];
  return 1 / (1 + Math.exp(-sum));
}

/** Five groups of row indices by a seeded shuffle: the folds of a cross-validation. */
export function folds(count, seed) {
  const order = shuffle(
    Array.from({ length: count }, (_, i) => i),
    seeded(seed),
  );
  return [0, 1, 2, 3, 4].map((f) => new Set(order.filter((_, k) => k % 5 === f)));
}

/** The largest weights, each rounded to one of 255 steps, as 8 hex digits of id << 8 | byte. */
function packed(model, keep) {
  const ids = [...model.w.keys()].filter((i) => model.w[i] !== 0);
  ids.sort((a, b) => Math.abs(model.w[b]) - Math.abs(model.w[a]) || a - b);
  const kept = ids.slice(0, keep).sort((a, b) => a - b);
  const scale = Math.max(...kept.map((i) => Math.abs(model.w[i]))) / 127;
  const weights = kept
    .map((id) => (((id << 8) | (Math.round(model.w[id] / scale) + 128)) >>> 0).toString(16).padStart(8, "0"))
    .join("");
  return { scale, weights, kept: kept.length, of: ids.length };
}

/**
 * Writes the model's weights file, or with `check` says whether the file is what was trained.
 * Returns false when a check fails.
 */
export function keepWeights({ model, keep, file, constName, script, rowsSaid, check }) {
  const out = packed(model, keep);
  const written = `// Written by \`npm run privacy:train\` (${script}); not edited by hand.
// ${rowsSaid}; the ${out.kept} largest of ${out.of} weights.
export const ${constName} = {
  bias: ${model.bias},
  scale: ${out.scale},
  weights:
    "${out.weights}",
} as const;
`;
  const full = path.join(root, file);
  if (check) {
    const same = existsSync(full) && readFileSync(full, "utf8") === written;
    if (same) console.log(`${file} is what this data trains`);
    else console.error(`${file} is not what this data trains: run \`npm run privacy:train\``);
    return same;
  }
  writeFileSync(full, written);
  console.log(`wrote ${file}: bias ${model.bias.toFixed(3)}, ${out.kept} weights`);
  return true;
}
