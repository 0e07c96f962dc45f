// Trains the reader of privacy requests (src/domain/privacy/request-reader.ts) for `npm run
// privacy:train` (train.mjs) and writes its weights to request-reader-weights.ts.
// It learns from the labelled corpus' dev split, the tuned halves of the blind sets, the reader's
// halves of sets p, q and r, and the half of the shared ordinary chat that readerTrainsOn picks; the held split, the held-back halves and
// the other half of ordinary chat are left for the evaluation (`npm run eval -- privacy-wording`).
// Before it trains on everything it prints, from five folds of the labelled rows, what each
// threshold adds to the phrase rules: the table the threshold was chosen from
// (docs/decisions/0630-a-trained-reader-of-privacy-requests.md).
import path from "node:path";
import { datasets } from "../eval/credentials.mjs";
import { readJsonl } from "../eval/domain-bundle.mjs";
import { root } from "../lib/dev-vars.mjs";
import { importTs } from "../lib/ts-import.mjs";
import { folds, keepWeights, probability, train } from "./logistic.mjs";
import { readerTrainsOn } from "./reader-split.mjs";

const KEPT_WEIGHTS = 8000;
const EPOCHS = 15;
const RATE = 0.2;
const L2 = 1e-5;
/** Labelled rows count three times an ordinary message: there are far fewer of them. */
const LABELLED_WEIGHT = 3;
const THRESHOLDS = [0.5, 0.7, 0.8, 0.85, 0.9, 0.95];

function labelledRows() {
  const corpus = readJsonl(path.join(root, "tests/fixtures/privacy/requests.jsonl")).filter(
    (r) => r.split === "dev",
  );
  // The tuned halves of the blind sets, and the halves no rule was written from: the reader's only.
  const wild = ["requests-wild.jsonl", "requests-wild-reader.jsonl"].flatMap((name) =>
    readJsonl(path.join(root, "tests/fixtures/privacy", name)),
  );
  return [...corpus, ...wild].map((r) => ({ text: r.text, y: r.label === "request" ? 1 : 0 }));
}

function ordinaryRows(dataDir) {
  const texts = datasets(dataDir).flatMap(([, t]) => t.filter(readerTrainsOn));
  if (texts.length === 0)
    throw new Error(`no ordinary chat under ${dataDir}: set AKASHA_EVAL_DATA or --data`);
  return texts.map((text) => ({ text, y: 0 }));
}

/** Out-of-fold scores of the labelled rows, five folds, ordinary chat always trained on. */
function crossValidate(labelled, ordinary, shape) {
  const scores = new Array(labelled.length);
  for (const held of folds(labelled.length, 11)) {
    const model = train([...labelled.filter((_, i) => !held.has(i)), ...ordinary], shape);
    for (const i of held) scores[i] = probability(model, labelled[i].ids);
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

/** Trains the reader and writes (or with `check`, checks) its weights; false when a check fails. */
export async function trainRequestReader({ dataDir, check }) {
  const reader = await importTs("src/domain/privacy/request-reader.ts");
  const rules = await importTs("src/domain/privacy/privacy-request.ts");
  const labelled = labelledRows().map((r) => ({
    ...r,
    ids: reader.requestGrams(r.text),
    weight: LABELLED_WEIGHT,
    ruled: rules.findPrivacyRequests(r.text).length > 0,
  }));
  const ordinary = ordinaryRows(dataDir).map((r) => ({ ...r, ids: reader.requestGrams(r.text), weight: 1 }));
  console.log(
    `requests: training rows: ${labelled.length} labelled (${labelled.filter((r) => r.y === 1).length} requests), ${ordinary.length} ordinary messages`,
  );
  const shape = { features: reader.READER_FEATURES, epochs: EPOCHS, rate: RATE, l2: L2 };
  crossValidate(labelled, ordinary, shape);
  const model = train([...labelled, ...ordinary], shape);
  return keepWeights({
    model,
    keep: KEPT_WEIGHTS,
    file: "src/domain/privacy/request-reader-weights.ts",
    constName: "READER_MODEL",
    script: "scripts/privacy/train-request-reader.mjs",
    rowsSaid: `${labelled.length} labelled rows and ${ordinary.length} ordinary messages`,
    check,
  });
}
