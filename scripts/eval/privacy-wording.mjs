// `npm run eval -- privacy-wording [--corpus <file>] [--baseline <commit>] [--misses dev]`:
// precision and recall of privacy-request recognition on the labelled corpus
// (tests/fixtures/privacy/requests.jsonl), today's detector next to the one at --baseline (the
// detector before docs/experiments/0120-privacy-wording.md), per split, in one run.
// A next-message case counts as recognised when the marker is recognised as a bare marker that
// points back (`previous`), or when the statement or its following marker is (`next`).
import { readFileSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";
import { importTs } from "../lib/ts-import.mjs";
import { importAt } from "./baseline-source.mjs";

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
  console.log(
    JSON.stringify({ dataset: "privacy-wording", corpus: path.relative(root, file), baseline, rows }),
  );
}
