// Trains the reader of values in Chinese words (src/domain/privacy/credential-han-reader.ts) for
// `npm run privacy:train` (train.mjs) and writes its weights to credential-han-reader-weights.ts.
// It learns from every stretch of Han text in the read blind sets (HAN_READ_SETS) and the dev splits
// of the credential corpus (a stretch that is the marked secret is a value, a stretch apart from
// it is not, one that only overlaps it is left out), from the dev splits and the read sets of the
// privacy requests and shares (Chinese that speaks of keeping things, none a value), from the
// half of the shared ordinary chat that readerTrainsOn picks (none is), and from copies of ordinary
// Chinese with its values set apart and of each value said as itself (neither is).
// Before it trains on everything it prints, from five folds of the messages, what each threshold
// reads, next to the rules alone: the table the threshold was chosen from
// (docs/decisions/0970-a-reader-of-chinese-word-values.md).
import { HAN_READ_SETS } from "../eval/credentials.mjs";
import { importTs } from "../lib/ts-import.mjs";
import * as training from "./value-reader-training.mjs";

const CORPORA = ["credentials.jsonl", "credentials-indirect.jsonl"];
/** Chinese about keeping things: requests, shares and what was written to look like them. */
const KEEPING = ["requests.jsonl", "shares.jsonl", "requests-wild.jsonl", "requests-wild-reader.jsonl"];

/**
 * A stretch is the value when the secret covers most of it and it most of the secret; it is not
 * when they do not meet; between the two it teaches nothing.
 */
function labelOf(c, at, end) {
  if (at < 0) return 0;
  const overlap = Math.min(c.end, end) - Math.max(c.start, at);
  if (overlap <= 0) return 0;
  return overlap >= 0.6 * (c.end - c.start) && overlap >= 0.5 * (end - at) ? 1 : null;
}

/** A message's stretches as the reader sees them, each labelled by the secret. */
function stretchesOf(reader, fold, text, secret, weight) {
  const read = fold(text);
  const at = secret ? read.indexOf(fold(secret)) : -1;
  const end = at + (secret ? fold(secret).length : 0);
  return reader.hanValueCandidates(read).flatMap((c) => {
    const y = labelOf(c, at, end);
    if (y === null) return [];
    return [{ ids: c.features, y, weight: y ? training.VALUE_WEIGHT : weight }];
  });
}

/**
 * Ordinary Chinese with a space after each word that hands a value over ("口头禅是 天王盖地虎 笑死"):
 * the read sets set most values apart with spaces, ordinary chat seldom does, and without these
 * copies the reader took the spaces themselves for a value
 * (docs/experiments/0720-a-reader-of-chinese-word-values.md).
 */
const spaced = (t) => t.replace(/(是|叫|成|为|填|输|答|回|用)(\p{Script=Han}{2,12})/gu, "$1 $2 ");

/**
 * Where a phrase is said as itself, in ordinary talk. Each value of the labelled lines is put in
 * each of them as an ordinary message, counted twice: a value's own characters must not make it a
 * password wherever it is said ("天王盖地虎" is a countersign in one line and a catchphrase in the
 * next). The reader's test puts the values in other frames than these.
 */
const SAID_AS_ITSELF = [
  "我最喜欢的一句话：X",
  "X，这句我小时候天天听",
  "有首老歌叫《X》挺好听的",
  "表情包上写着「X」笑死我了",
  "X 这个梗你们懂吗",
  "昨天路过一家店，招牌上写着 X",
];

/** Each value in Chinese words of the labelled lines, said as itself in every ordinary frame. */
function saidAsItself(rows) {
  const values = [
    ...new Set(rows.flatMap((r) => (r.label !== "none" && HAN_VALUE.test(r.secret ?? "") ? [r.secret] : []))),
  ];
  return values.flatMap((v) => SAID_AS_ITSELF.map((frame) => frame.replace("X", v)));
}
const HAN_VALUE = /^\p{Script=Han}{2,12}$/u;

/** Every message: its text, its stretches, and a secret (1), a near miss (0) or ordinary (null). */
function messages(reader, fold, dataDir) {
  const lines = [
    ...CORPORA.flatMap(training.privacyFixture).filter((r) => r.split === "dev"),
    ...HAN_READ_SETS.flatMap(training.privacyFixture),
  ];
  const labelled = lines.map((r) => {
    const ordinary = r.form === "ordinary";
    const secret = r.label === "none" ? null : r.secret;
    const kind = ordinary ? null : secret ? 1 : 0;
    return {
      text: r.text,
      kind,
      runs: stretchesOf(reader, fold, r.text, secret, ordinary ? 1 : training.LABELLED_WEIGHT),
    };
  });
  const keeping = KEEPING.flatMap(training.privacyFixture)
    .filter((r) => r.split !== "held")
    .flatMap((r) => [r.text, r.next].filter((t) => typeof t === "string"));
  const texts = training.ordinaryHalf(dataDir);
  const plain = (weight) => (t) => ({
    text: t,
    kind: null,
    runs: stretchesOf(reader, fold, t, null, weight),
  });
  const chinese = [...keeping, ...texts].filter((t) => /\p{Script=Han}/u.test(t));
  const spacedCopies = chinese.map(spaced).filter((t, i) => t !== chinese[i]);
  return [
    ...labelled,
    ...keeping.map(plain(training.LABELLED_WEIGHT)),
    ...texts.map(plain(1)),
    ...spacedCopies.map(plain(1)),
    ...saidAsItself(lines).map(plain(training.LABELLED_WEIGHT)),
  ];
}

/** Out-of-fold reading of every message, five folds by message, next to what the rules find. */
function crossValidate(rows, features, rules) {
  const scores = training.outOfFoldScores(rows, features, 17);
  const ruled = rows.map((r) => rules(r.text));
  const count = (kind) => rows.filter((r) => r.kind === kind).length;
  const of = (kind, f) => rows.filter((r, i) => r.kind === kind && f(i)).length;
  console.log("han values: five folds of the messages (secrets masked, near misses and ordinary changed)");
  console.log(
    `  rules alone: ${of(1, (i) => ruled[i])}/${count(1)}, ${of(0, (i) => ruled[i])}/${count(0)}, ${of(null, (i) => ruled[i])}/${count(null)}`,
  );
  for (const t of training.THRESHOLDS) {
    const read = (i) => scores[i].some((s) => s >= t);
    const both = (i) => ruled[i] || read(i);
    console.log(
      `  threshold ${t.toFixed(2)}: reader alone ${of(1, read)}, ${of(0, read)}, ${of(null, read)}; with the rules ${of(1, both)}/${count(1)}, ${of(0, both)}/${count(0)}, ${of(null, both)}/${count(null)}`,
    );
  }
}

/** Trains the reader and writes (or with `check`, checks) its weights; false when a check fails. */
export async function trainHanReader({ dataDir, check }) {
  const reader = await importTs("src/domain/privacy/credential-han-reader.ts");
  const { detectionText } = await importTs("src/domain/text/detection-text.ts");
  const { findSensitiveData } = await importTs("src/domain/privacy/credentials.ts");
  const rows = messages(reader, (s) => detectionText(s).text, dataDir);
  const runs = rows.flatMap((r) => r.runs);
  console.log(
    `han values: ${rows.length} messages, ${runs.length} stretches, ${runs.filter((r) => r.y === 1).length} of them secret`,
  );
  crossValidate(rows, reader.HAN_READER_FEATURES, (text) => findSensitiveData(text).length > 0);
  return training.keepValueReader({
    rows,
    features: reader.HAN_READER_FEATURES,
    file: "src/domain/privacy/credential-han-reader-weights.ts",
    constName: "CREDENTIAL_HAN_READER_MODEL",
    script: "scripts/privacy/train-han-reader.mjs",
    rowsSaid: `${rows.length} messages, ${runs.length} stretches`,
    check,
  });
}
