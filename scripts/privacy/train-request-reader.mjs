// `npm run privacy:train [-- --data <dir>]`: trains the reader of privacy requests
// (src/domain/privacy/request-reader.ts) and writes its weights to request-reader-weights.ts.
// It learns from the labelled corpus' dev split, the tuned halves of the blind sets and the half
// of the shared ordinary chat that readerTrainsOn picks (--data, or AKASHA_EVAL_DATA); the held
// split, the held-back halves and the other half of ordinary chat are left for the evaluation
// (`npm run eval -- privacy-wording`). Before it trains on everything it prints, from five folds
// of the labelled rows, what each threshold adds to the phrase rules: the table the threshold was
// chosen from (docs/decisions/0630-a-trained-reader-of-privacy-requests.md). Training is seeded,
// so the same data gives the same weights. `--check` writes nothing and fails when the weights in
// the repository are not what the data gives (a corpus changed without training again); with
// `--if-data` a clone without the shared datasets says so and passes.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { datasets } from "../eval/credentials.mjs";
import { evalDataDir } from "../eval/data-dir.mjs";
import { readJsonl } from "../eval/domain-bundle.mjs";
import { root } from "../lib/dev-vars.mjs";
import { importTs } from "../lib/ts-import.mjs";
import { readerTrainsOn } from "./reader-split.mjs";

const KEPT_WEIGHTS = 8000;
const EPOCHS = 15;
const RATE = 0.2;
const L2 = 1e-5;
/** Labelled rows count three times an ordinary message: there are far fewer of them. */
const LABELLED_WEIGHT = 3;
const THRESHOLDS = [0.5, 0.7, 0.8, 0.85, 0.9, 0.95];

const { values: flags } = parseArgs({
  options: { data: { type: "string" }, check: { type: "boolean" }, "if-data": { type: "boolean" } },
});
const dataDir = flags.data ?? evalDataDir();
if (flags["if-data"] && !existsSync(path.join(dataDir, "locomo"))) {
  console.log(`privacy:train: NOT RUN — no shared datasets under ${dataDir} (set AKASHA_EVAL_DATA)`);
  process.exit(0);
}
const reader = await importTs("src/domain/privacy/request-reader.ts");
const rules = await importTs("src/domain/privacy/privacy-request.ts");

function labelledRows() {
  const corpus = readJsonl(path.join(root, "tests/fixtures/privacy/requests.jsonl")).filter(
    (r) => r.split === "dev",
  );
  const wild = readJsonl(path.join(root, "tests/fixtures/privacy/requests-wild.jsonl"));
  return [...corpus, ...wild].map((r) => ({ text: r.text, y: r.label === "request" ? 1 : 0 }));
}

function ordinaryRows() {
  const texts = datasets(dataDir).flatMap(([, t]) => t.filter(readerTrainsOn));
  if (texts.length === 0)
    throw new Error(`no ordinary chat under ${dataDir}: set AKASHA_EVAL_DATA or --data`);
  return texts.map((text) => ({ text, y: 0 }));
}

/** A seeded linear congruential generator, so that a run can be repeated. */
function seeded(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
}

function shuffle(rows, random) {
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  return rows;
}

/** Stochastic gradient descent on the log loss, each step scaled by the message's gram count. */
function train(rows) {
  const w = new Float64Array(reader.READER_FEATURES);
  let bias = 0;
  const random = seeded(7);
  const order = [...rows];
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (const r of shuffle(order, random)) {
      let sum = bias;
      for (const id of r.grams) sum += w[id];
      const step = ((1 / (1 + Math.exp(-sum)) - r.y) * r.weight * RATE) / Math.sqrt(r.grams.length);
      for (const id of r.grams) w[id] -= step + L2 * w[id];
      bias -= step;
    }
  }
  return { w, bias };
}

const probability = (model, grams) => {
  let sum = model.bias;
  for (const id of grams) sum += model.w[id];
  return 1 / (1 + Math.exp(-sum));
};

/** Out-of-fold scores of the labelled rows, five folds, ordinary chat always trained on. */
function crossValidate(labelled, ordinary) {
  const folds = 5;
  const order = shuffle(
    labelled.map((_, i) => i),
    seeded(11),
  );
  const scores = new Array(labelled.length);
  for (let f = 0; f < folds; f++) {
    const held = new Set(order.filter((_, k) => k % folds === f));
    const model = train([...labelled.filter((_, i) => !held.has(i)), ...ordinary]);
    for (const i of held) scores[i] = probability(model, labelled[i].grams);
  }
  console.log("five folds of the labelled rows: what the reader adds to the phrase rules");
  for (const t of THRESHOLDS) {
    const missed = labelled.filter((r) => r.y === 1 && !r.ruled);
    const left = labelled.filter((r) => r.y === 0 && !r.ruled);
    const read = (rs) => rs.filter((r) => scores[labelled.indexOf(r)] >= t).length;
    console.log(
      `  threshold ${t.toFixed(2)}: requests the rules miss read ${read(missed)}/${missed.length}, near misses the rules leave read ${read(left)}/${left.length}`,
    );
  }
}

/** The largest weights, each rounded to one of 255 steps, as 8 hex digits of id << 8 | byte. */
function packed(model) {
  const ids = [...model.w.keys()].filter((i) => model.w[i] !== 0);
  ids.sort((a, b) => Math.abs(model.w[b]) - Math.abs(model.w[a]) || a - b);
  const kept = ids.slice(0, KEPT_WEIGHTS).sort((a, b) => a - b);
  const scale = Math.max(...kept.map((i) => Math.abs(model.w[i]))) / 127;
  const weights = kept
    .map((id) => (((id << 8) | (Math.round(model.w[id] / scale) + 128)) >>> 0).toString(16).padStart(8, "0"))
    .join("");
  return { scale, weights, kept: kept.length, of: ids.length };
}

const labelled = labelledRows().map((r) => ({
  ...r,
  grams: reader.requestGrams(r.text),
  weight: LABELLED_WEIGHT,
  ruled: rules.findPrivacyRequests(r.text).length > 0,
}));
const ordinary = ordinaryRows().map((r) => ({ ...r, grams: reader.requestGrams(r.text), weight: 1 }));
console.log(
  `training rows: ${labelled.length} labelled (${labelled.filter((r) => r.y === 1).length} requests), ${ordinary.length} ordinary messages`,
);
crossValidate(labelled, ordinary);
const model = train([...labelled, ...ordinary]);
const out = packed(model);
const file = path.join(root, "src/domain/privacy/request-reader-weights.ts");
const written = `// Written by \`npm run privacy:train\` (scripts/privacy/train-request-reader.mjs); not edited by hand.
// ${labelled.length} labelled rows and ${ordinary.length} ordinary messages; the ${out.kept} largest of ${out.of} weights.
export const READER_MODEL = {
  bias: ${model.bias},
  scale: ${out.scale},
  weights:
    "${out.weights}",
} as const;
`;
if (flags.check) {
  if (!existsSync(file) || readFileSync(file, "utf8") !== written) {
    console.error(`${path.relative(root, file)} is not what this data trains: run \`npm run privacy:train\``);
    process.exit(1);
  }
  console.log(`${path.relative(root, file)} is what this data trains`);
} else {
  writeFileSync(file, written);
  console.log(`wrote ${path.relative(root, file)}: bias ${model.bias.toFixed(3)}, ${out.kept} weights`);
}
