// Trains the reader of credential values (src/domain/privacy/credential-reader.ts) for `npm run
// privacy:train` (train.mjs) and writes its weights to credential-reader-weights.ts.
// It learns from every run of printable characters in the dev splits of the credential corpus and
// of its values given without a keyword (credentials-indirect.jsonl), in the blind sets that were
// read (READ_SETS, decision 0930) (a run over the marked secret is a value, every other run is
// not) and in the half of the shared ordinary chat that readerTrainsOn picks (none is). The
// corpus' held split, the held-back sets and the other half of ordinary chat are left for the
// evaluation (`npm run eval -- credentials`).
// Before it trains on everything it prints, from five folds of the rows, what each threshold
// reads: the table the threshold was chosen from
// (docs/decisions/0640-a-trained-reader-of-credential-values.md).
import path from "node:path";
import { READ_SETS } from "../eval/credentials.mjs";
import { readJsonl } from "../eval/domain-bundle.mjs";
import { root } from "../lib/dev-vars.mjs";
import { importTs } from "../lib/ts-import.mjs";
import {
  keepValueReader,
  LABELLED_WEIGHT,
  ordinaryHalf,
  outOfFoldScores,
  privacyFixture,
  THRESHOLDS,
  VALUE_WEIGHT,
} from "./value-reader-training.mjs";

/** The labelled corpora it learns from (their dev splits): the rules' corpus, and values given without a keyword. */
const CORPORA = [
  "tests/fixtures/privacy/credentials.jsonl",
  "tests/fixtures/privacy/credentials-indirect.jsonl",
];

/** The message's runs as the reader sees them, each labelled by whether it covers the secret. */
function runsOf(reader, fold, text, secret, weight) {
  const read = fold(text);
  const at = secret ? read.indexOf(fold(secret)) : -1;
  const end = at + (secret ? fold(secret).length : 0);
  return reader.valueCandidates(read).map((c) => {
    const y = at >= 0 && c.start < end && at < c.end ? 1 : 0;
    return { ids: c.features, y, weight: y ? VALUE_WEIGHT : weight };
  });
}

/**
 * The read blind sets' messages: a positive's runs with its secret marked, a near miss's and an
 * ordinary message's as they are. Each line was written as one message, with no split: all of it
 * was read, so all of it is dev. A secret in Chinese words is in no run: its message teaches only
 * what is not a value, and the table counts it neither way (kind "words").
 */
function readSetMessages(reader, fold) {
  return READ_SETS.flatMap(privacyFixture).map((r) => {
    const ordinary = r.form === "ordinary";
    const secret = r.label === "none" ? null : r.secret;
    const runs = runsOf(reader, fold, r.text, secret, ordinary ? 1 : LABELLED_WEIGHT);
    const kind = ordinary ? null : !secret ? 0 : runs.some((run) => run.y === 1) ? 1 : "words";
    return { kind, runs };
  });
}

/** A message: its runs, and whether it carries a secret (1), is a near miss (0) or ordinary (null). */
function messages(reader, fold, dataDir) {
  const corpus = CORPORA.flatMap((file) => readJsonl(path.join(root, file))).filter(
    (r) => r.split === "dev" && typeof r.text === "string",
  );
  const labelled = corpus.map((r) => ({
    kind: r.label === "none" ? 0 : 1,
    runs: runsOf(reader, fold, r.text, r.label === "none" ? null : r.secret, LABELLED_WEIGHT),
  }));
  const texts = ordinaryHalf(dataDir);
  const ordinary = texts.map((t) => ({ kind: null, runs: runsOf(reader, fold, t, null, 1) }));
  return [...labelled, ...readSetMessages(reader, fold), ...ordinary];
}

/** Out-of-fold reading of every message, five folds by message. */
function crossValidate(rows, features) {
  const scores = outOfFoldScores(rows, features, 13);
  console.log("credentials: five folds of the messages, the reader alone");
  const count = (kind) => rows.filter((r) => r.kind === kind).length;
  for (const t of THRESHOLDS) {
    const masked = (i) =>
      rows[i].runs.some((r) => r.y === 1) && rows[i].runs.every((r, k) => r.y === 0 || scores[i][k] >= t);
    const changed = (i) => scores[i].some((s) => s >= t);
    const of = (kind, f) => rows.filter((r, i) => r.kind === kind && f(i)).length;
    const ordinary = of(null, changed);
    console.log(
      `  threshold ${t.toFixed(2)}: secrets masked ${of(1, masked)}/${count(1)}, near misses changed ${of(0, changed)}/${count(0)}, ordinary messages changed ${ordinary}/${count(null)} (${((ordinary / count(null)) * 10_000).toFixed(1)} per 10,000)`,
    );
  }
}

/** Trains the reader and writes (or with `check`, checks) its weights; false when a check fails. */
export async function trainCredentialReader({ dataDir, check }) {
  const reader = await importTs("src/domain/privacy/credential-reader.ts");
  const { detectionText } = await importTs("src/domain/text/detection-text.ts");
  const rows = messages(reader, (s) => detectionText(s).text, dataDir);
  const runs = rows.flatMap((r) => r.runs);
  console.log(
    `credentials: ${rows.length} messages, ${runs.length} runs, ${runs.filter((r) => r.y === 1).length} of them secret`,
  );
  crossValidate(rows, reader.CREDENTIAL_READER_FEATURES);
  return keepValueReader({
    rows,
    features: reader.CREDENTIAL_READER_FEATURES,
    file: "src/domain/privacy/credential-reader-weights.ts",
    constName: "CREDENTIAL_READER_MODEL",
    script: "scripts/privacy/train-credential-reader.mjs",
    rowsSaid: `${rows.length} messages, ${runs.length} runs`,
    check,
  });
}
