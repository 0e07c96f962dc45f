// The quality guard with no datasets: on its own it fails (a guard that cannot run is no guard),
// and under --if-data, the flag CI passes because a fresh clone may have no datasets beside it,
// it says loudly that it did not run and lets the run go on.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";

const script = path.join(import.meta.dirname, "..", "..", "scripts", "eval", "ci.mjs");

function guard(args) {
  const empty = mkdtempSync(path.join(os.tmpdir(), "akasha-no-datasets-"));
  try {
    return spawnSync(process.execPath, [script, ...args], {
      env: { ...process.env, AKASHA_EVAL_DATA: empty },
      encoding: "utf8",
    });
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

describe("eval:ci without its datasets", () => {
  it("fails and names the missing datasets", () => {
    const run = guard([]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /datasets not found .*memorybank-zh/);
  });

  it("under --if-data, says it did not run and exits 0 without evaluating", () => {
    const run = guard(["--if-data"]);
    assert.equal(run.status, 0);
    assert.match(run.stderr, /eval:ci NOT RUN/);
    assert.doesNotMatch(run.stdout, /kept|FAILED/);
  });
});
