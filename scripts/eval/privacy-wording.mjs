// `npm run eval -- privacy-wording [--corpus <file>] [--baseline <commit>] [--misses dev] [--data <dir>] [--show N]`:
// precision and recall of privacy-request recognition on the labelled corpus
// (tests/fixtures/privacy/requests.jsonl), today's detector next to the one at --baseline (the
// detector before docs/experiments/0120-privacy-wording.md), per split, in one run.
// A next-message case counts as recognised when the marker is recognised as a bare marker that
// points back (`previous`), or when the statement or its following marker is (`next`).
// Then the sets written blind (BLIND_SETS), and how many ordinary messages of the shared LoCoMo,
// KdConv and MemoryBank sets each detector reads as a request (--data, or AKASHA_EVAL_DATA).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";
import { importTs } from "../lib/ts-import.mjs";
import { readerTrainsOn } from "../privacy/reader-split.mjs";
import { importAt } from "./baseline-source.mjs";
import { readJsonl } from "./domain-bundle.mjs";
import { ordinaryRates } from "./ordinary-rate.mjs";

/**
 * Group messages written blind, by writers who saw neither the rules nor the corpus
 * (docs/experiments/0600-privacy-requests-as-people-type-them.md): the first is tuned on, the
 * second is never read while tuning.
 */
const BLIND_SETS = [
  ["written blind, tuned on", "tests/fixtures/privacy/requests-wild.jsonl"],
  ["written blind, held back", "tests/fixtures/privacy/requests-wild-held-back.jsonl"],
  // Sets p, q and r (docs/experiments/0680-privacy-requests-three-more-blind-sets.md): half trains
  // the reader and no rule was written from it, half is held back.
  ["written blind, the reader trained on", "tests/fixtures/privacy/requests-wild-reader.jsonl"],
  ["written blind, held back (p, q, r)", "tests/fixtures/privacy/requests-wild-held-back-2.jsonl"],
  // Set s, measured once whole after the rules of decision 0810, never read.
  ["written blind, held back (s)", "tests/fixtures/privacy/requests-wild-held-back-s.jsonl"],
];

export const PRIVACY_BASELINE = "77317ac";

function predict(api, item) {
  if (item.previous !== undefined) return api.isBarePrivacyMarker(item.text);
  const said = api.explicitSensitivity(item.text) !== null;
  if (item.next !== undefined) return said || api.isBarePrivacyMarker(item.next);
  return said;
}

function score(rows) {
  const tp = rows.filter((r) => r.label === "request" && r.predicted).length;
  const fp = rows.filter((r) => r.label !== "request" && r.predicted).length;
  const fn = rows.filter((r) => r.label === "request" && !r.predicted).length;
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  return { n: rows.length, tp, fp, fn, precision, recall };
}

const pct = (x) => `${(x * 100).toFixed(1)}%`.padStart(6);

export async function evalPrivacyWording(flags) {
  const file =
    typeof flags.corpus === "string"
      ? flags.corpus
      : path.join(root, "tests/fixtures/privacy/requests.jsonl");
  const items = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  const baseline = typeof flags.baseline === "string" ? flags.baseline : PRIVACY_BASELINE;
  const detectors = [
    [`before (${baseline})`, await importAt(baseline, "src/domain/memory/sensitivity.ts")],
    ["after", await importTs("src/domain/memory/sensitivity.ts")],
  ];
  const rows = [];
  console.log(`privacy-request recognition on ${path.relative(root, file)} (${items.length} items)`);
  console.log("detector              split  n    precision  recall   tp   fp   fn");
  for (const [name, api] of detectors) {
    const judged = items.map((item) => ({ ...item, predicted: predict(api, item) }));
    for (const split of ["dev", "held"]) {
      const s = score(judged.filter((r) => r.split === split));
      rows.push({ detector: name, split, ...s });
      console.log(
        `${name.padEnd(22)}${split.padEnd(7)}${String(s.n).padEnd(5)}${pct(s.precision)}     ${pct(s.recall)}  ${String(s.tp).padStart(4)} ${String(s.fp).padStart(4)} ${String(s.fn).padStart(4)}`,
      );
    }
    const byVariant = {};
    for (const v of [...new Set(items.map((i) => `${i.lang}/${i.variant}`))].sort()) {
      const s = score(judged.filter((r) => r.split === "dev" && `${r.lang}/${r.variant}` === v));
      byVariant[v] = `${s.tp}/${s.tp + s.fn} fp ${s.fp}`;
    }
    console.log(`  dev by lang/variant (recognised/requests, false positives): ${JSON.stringify(byVariant)}`);
    if (flags.misses === "dev" && name === "after") {
      for (const r of judged.filter((x) => x.split === "dev" && x.predicted !== (x.label === "request"))) {
        console.log(
          `  ${r.label === "request" ? "missed" : "false "} ${JSON.stringify(r.previous ?? "")} ${r.text} ${JSON.stringify(r.next ?? "")}`,
        );
      }
    }
  }
  const blind = blindSets(detectors);
  // A false alarm marks the speaker's ten minutes around it, which sibling chats then do not read.
  // The trained reader learned from half of these messages (scripts/privacy/reader-split.mjs):
  // only the other half is counted.
  const ordinary = ordinaryRates(
    detectors,
    flags,
    "ordinary messages the reader never trained on, read as a privacy request",
    (api, t) => api.explicitSensitivity(t) !== null,
    (t) => !readerTrainsOn(t),
  );
  console.log(
    JSON.stringify({
      dataset: "privacy-wording",
      corpus: path.relative(root, file),
      baseline,
      rows,
      blind,
      ordinary,
    }),
  );
}

/** Requests read and near misses read as requests, per blind set, for each detector. */
function blindSets(detectors) {
  const out = [];
  for (const [title, rel] of BLIND_SETS) {
    const file = path.join(root, rel);
    if (!existsSync(file)) continue;
    const rows = readJsonl(file);
    const requests = rows.filter((r) => r.label === "request");
    const misses = rows.filter((r) => r.label === "none");
    const everyday = rows.filter((r) => r.label === "ordinary");
    console.log(`\n${title} (${rel}):`);
    for (const [name, api] of detectors) {
      const read = (r) => api.explicitSensitivity(r.text) !== null;
      const cell = {
        set: rel,
        detector: name,
        requests: requests.length,
        read: requests.filter(read).length,
      };
      Object.assign(cell, { nearMisses: misses.length, falseAlarms: misses.filter(read).length });
      Object.assign(cell, { ordinary: everyday.length, ordinaryRead: everyday.filter(read).length });
      out.push(cell);
      const plain =
        everyday.length > 0 ? `, ordinary group messages read ${cell.ordinaryRead}/${cell.ordinary}` : "";
      console.log(
        `  ${name.padEnd(20)} requests read ${cell.read}/${cell.requests}, near misses read as a request ${cell.falseAlarms}/${cell.nearMisses}${plain}`,
      );
    }
  }
  return out;
}
