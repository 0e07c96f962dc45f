// `npm run eval -- share-markers [--corpus <file>] [--baseline <commit>] [--data <dir>] [--show N]`:
// how the person's share marker (src/domain/memory/origin.ts, share-marker.ts) reads the labelled
// corpus (tests/fixtures/privacy/shares.jsonl): permissions read, and near misses read as
// permissions (each a private matter published), per split, today's reading next to the one
// at --baseline in the same run; then how many ordinary messages of the shared LoCoMo, KdConv
// and MemoryBank sets would be read as a permission (--data, or AKASHA_EVAL_DATA).
// --show N prints N of today's readings of ordinary messages as permissions.
import { existsSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";
import { importTs } from "../lib/ts-import.mjs";
import { importAt } from "./baseline-source.mjs";
import { readJsonl } from "./domain-bundle.mjs";
import { ordinaryRates } from "./ordinary-rate.mjs";

/** The commit before docs/experiments/0510-share-marker-near-misses.md. */
export const SHARE_BASELINE = "9965f2a";

export async function evalShareMarkers(flags) {
  const file =
    typeof flags.corpus === "string" ? flags.corpus : path.join(root, "tests/fixtures/privacy/shares.jsonl");
  const baseline = typeof flags.baseline === "string" ? flags.baseline : SHARE_BASELINE;
  const rows = readJsonl(file);
  const readers = [
    [`before (${baseline})`, await importAt(baseline, "src/domain/memory/origin.ts")],
    ["after", await importTs("src/domain/memory/origin.ts")],
  ];
  console.log(`share markers on ${path.relative(root, file)} (${rows.length} messages)`);
  console.log("reading               split  permissions read   near misses read as permission");
  const report = [];
  for (const [name, api] of readers) {
    for (const split of ["dev", "held"]) {
      const pick = rows.filter((r) => r.split === split);
      const shares = pick.filter((r) => r.label === "share");
      const misses = pick.filter((r) => r.label === "none");
      const read = shares.filter((r) => api.shareRequested(r.text)).length;
      const leaked = misses.filter((r) => api.shareRequested(r.text)).length;
      report.push({ reading: name, split, shares: shares.length, read, nearMisses: misses.length, leaked });
      console.log(
        `${name.padEnd(22)}${split.padEnd(7)}${`${read}/${shares.length}`.padEnd(17)}${leaked}/${misses.length}`,
      );
    }
  }
  for (const name of ["shares-held-back.jsonl", "shares-held-back-t.jsonl", "shares-held-back-u.jsonl"]) {
    const heldBack = path.join(root, "tests/fixtures/privacy", name);
    if (existsSync(heldBack)) heldBackSet(heldBack, readers);
  }
  const ordinary = ordinaryRates(readers, flags, "ordinary messages read as a permission", (api, t) =>
    api.shareRequested(t),
  );
  console.log(
    JSON.stringify({
      dataset: "share-markers",
      corpus: path.relative(root, file),
      baseline,
      report,
      ordinary,
    }),
  );
}

/** A set written blind and never read while the rules were tuned: permissions read, near misses read as one. */
function heldBackSet(file, readers) {
  const held = readJsonl(file);
  const shares = held.filter((r) => r.label === "share");
  const misses = held.filter((r) => r.label === "none");
  console.log(`\nheld back, never tuned on (${path.relative(root, file)}):`);
  for (const [name, api] of readers) {
    const read = shares.filter((r) => api.shareRequested(r.text)).length;
    const leaked = misses.filter((r) => api.shareRequested(r.text)).length;
    console.log(
      `  ${name.padEnd(20)} permissions read ${read}/${shares.length}, near misses read as permission ${leaked}/${misses.length}`,
    );
  }
}
