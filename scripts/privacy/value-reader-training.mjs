// How both trained readers of credential values learn (train-credential-reader.mjs for runs of
// ASCII characters, train-han-reader.mjs for stretches of Chinese words): one shape, so that what
// 0640 measured for the first holds for the second, and a change to it is made to both.
import path from "node:path";
import { datasets } from "../eval/credentials.mjs";
import { readJsonl } from "../eval/domain-bundle.mjs";
import { root } from "../lib/dev-vars.mjs";
import { folds, keepWeights, probability, train } from "./logistic.mjs";
import { readerTrainsOn } from "./reader-split.mjs";

/** The learner's settings. */
const SHAPE = { epochs: 12, rate: 0.2, l2: 1e-5 };

/** How many of the largest weights are kept. */
const KEPT_WEIGHTS = 12000;

/** A secret value counts this many times an ordinary candidate: there are few of them. */
export const VALUE_WEIGHT = 4;

/** Every other candidate of a labelled line counts twice an ordinary one: it was written to be confusable. */
export const LABELLED_WEIGHT = 2;

/** The thresholds the five folds are printed at, which each reader's threshold is chosen from. */
export const THRESHOLDS = [0.5, 0.7, 0.8, 0.9, 0.95, 0.98];

/**
 * Each message's candidates read by a reader trained without it: five folds by message (`seed`
 * shuffles them), so a value is never scored by weights it taught.
 */
export function outOfFoldScores(rows, features, seed) {
  const shape = { features, ...SHAPE };
  const scores = new Array(rows.length);
  for (const held of folds(rows.length, seed)) {
    const model = train(
      rows.filter((_, i) => !held.has(i)).flatMap((r) => r.runs),
      shape,
    );
    for (const i of held) scores[i] = rows[i].runs.map((r) => probability(model, r.ids));
  }
  return scores;
}

/**
 * Trains a reader of values on every candidate of `rows` and writes (or with `check`, checks) its
 * weights (keepWeights); false when a check fails.
 */
export function keepValueReader({ rows, features, ...kept }) {
  const model = train(
    rows.flatMap((r) => r.runs),
    { features, ...SHAPE },
  );
  return keepWeights({ model, keep: KEPT_WEIGHTS, ...kept });
}

/** The lines of a privacy fixture (tests/fixtures/privacy). */
export const privacyFixture = (name) => readJsonl(path.join(root, "tests/fixtures/privacy", name));

/** The half of the shared ordinary chat the readers learn from (readerTrainsOn); the eval reads the other. */
export function ordinaryHalf(dataDir) {
  const texts = datasets(dataDir).flatMap(([, t]) => t.filter(readerTrainsOn));
  if (texts.length === 0)
    throw new Error(`no ordinary chat under ${dataDir}: set AKASHA_EVAL_DATA or --data`);
  return texts;
}
