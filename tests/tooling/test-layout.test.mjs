// Runs in Node (not workerd) as part of `npm run lint`: tests/ mirrors src/ (docs/architecture.md#tests),
// so that the test of a module is found where the module is, and a flat folder of unsorted tests
// cannot grow back. Each rule is also shown catching a fixture.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

const root = path.resolve(import.meta.dirname, "../..");

/** Folders of tests/ whose sub-folders are the same-named folders of src/. */
const MIRRORS = ["domain", "adapters", "composition", "workers", "durable-objects"];
/** Promises that span layers: named for the section of docs/invariants.md, or a whole-stack flow. */
const CROSS_CUTTING = ["invariants", "e2e"];
/** Node-run tests of the scripts: their sub-folders are the same-named folders of scripts/. */
const SCRIPT_MIRRORS = ["cli", "model", "eval"];
/** Node-run checks of the repository itself and the browser run of the dashboard. */
const OWN = ["tooling", "browser"];
/** Shared set-up only: fakes, builders, signing, fixtures; a test file here is misplaced. */
const SUPPORT = ["support", "fakes", "fixtures", "setup"];

/**
 * Folders of src/ with no tests/ counterpart yet, each checked through the tests of the code that
 * uses it. A folder leaves this list when it gets its tests folder (the check says so), and a new
 * src/ folder must come with its tests folder or be added here on purpose.
 */
const SRC_FOLDERS_WITHOUT_TESTS = [
  "adapters/local",
  "adapters/log",
  "adapters/recorder",
  "domain/agent/commands",
  "domain/backfill",
  "domain/model",
  "workers/admin-input",
  "workers/dashboard/i18n",
];

const MAX_TEST_LINES = 500;
const isTest = (file) => /\.test\.m?tsx?$|\.test\.mjs$/.test(file);

/**
 * What breaks the layout. `tree` has the test tree's files and folders (paths below tests/), the
 * folders of src/ and of scripts/ (paths below each), and the line count of each test file.
 */
function layoutProblems({ testFiles, testFolders, srcFolders, scriptFolders, lines = {} }) {
  const problems = [];
  const src = new Set(srcFolders);
  const scripts = new Set(scriptFolders);
  const known = new Set([...MIRRORS, ...CROSS_CUTTING, ...SCRIPT_MIRRORS, ...OWN, ...SUPPORT]);
  for (const folder of testFolders) {
    const [top, ...rest] = folder.split("/");
    if (!known.has(top)) problems.push(`tests/${folder}: not a folder of the layout`);
    else if (MIRRORS.includes(top) && !src.has(folder)) problems.push(`tests/${folder}: no src/${folder}`);
    else if (SCRIPT_MIRRORS.includes(top) && !scripts.has(folder))
      problems.push(`tests/${folder}: no scripts/${folder}`);
    else if (CROSS_CUTTING.includes(top) && rest.length > 0)
      problems.push(`tests/${folder}: keep ${top}/ flat`);
  }
  for (const file of testFiles.filter(isTest)) {
    const [top, ...rest] = file.split("/");
    if (rest.length === 0) problems.push(`tests/${file}: a test at the top of tests/`);
    else if (SUPPORT.includes(top)) problems.push(`tests/${file}: a test in the support folder ${top}/`);
    if ((lines[file] ?? 0) > MAX_TEST_LINES) problems.push(`tests/${file}: ${lines[file]} lines`);
  }
  const tested = new Set(testFolders);
  for (const folder of srcFolders) {
    const excused = SRC_FOLDERS_WITHOUT_TESTS.includes(folder);
    if (!tested.has(folder) && !excused) problems.push(`src/${folder}: no tests/${folder}`);
    if (tested.has(folder) && excused) problems.push(`src/${folder}: has tests now, take it off the list`);
  }
  return problems.sort();
}

/** The files below `base` and every folder that holds one (an empty folder left by git is no folder). */
function walk(base) {
  const files = readdirSync(path.join(root, base), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) =>
      path.relative(path.join(root, base), path.join(d.parentPath, d.name)).replaceAll(path.sep, "/"),
    );
  const folders = new Set();
  for (const file of files) {
    const parts = file.split("/").slice(0, -1);
    for (let i = 1; i <= parts.length; i++) folders.add(parts.slice(0, i).join("/"));
  }
  return { files, folders: [...folders] };
}

test("tests/ mirrors src/ and scripts/, every src/ folder has its tests, no test file is long", () => {
  const tests = walk("tests");
  const testFiles = tests.files.filter((f) => !f.startsWith("fixtures/"));
  const testFolders = tests.folders.filter(
    (f) => !f.startsWith("fixtures/") && !f.startsWith("tooling/fixtures"),
  );
  const lines = Object.fromEntries(
    testFiles
      .filter(isTest)
      .map((f) => [f, readFileSync(path.join(root, "tests", f), "utf8").split("\n").length - 1]),
  );
  const count = testFiles.filter(isTest).length;
  assert.ok(count > 200, `only ${count} test files found`);
  const problems = layoutProblems({
    testFiles,
    testFolders,
    srcFolders: walk("src").folders,
    scriptFolders: walk("scripts").folders,
    lines,
  });
  assert.deepEqual(problems, []);
});

test("the layout check catches a flat folder, a folder with no src/ twin, a misplaced or long test", () => {
  const base = {
    srcFolders: ["domain", "domain/memory", "adapters", "adapters/d1"],
    scriptFolders: ["cli"],
    testFolders: ["domain", "domain/memory", "adapters", "adapters/d1", "cli", "support", "invariants"],
    testFiles: [
      "domain/memory/recall.test.ts",
      "support/memory.ts",
      "invariants/read-gate.test.ts",
      "env.d.ts",
    ],
  };
  assert.deepEqual(layoutProblems(base), []);
  const broken = layoutProblems({
    ...base,
    testFolders: [
      ...base.testFolders,
      "integration",
      "domain/memories",
      "cli/extra",
      "invariants/deep",
      "adapters/d1/gone",
    ],
    testFiles: [...base.testFiles, "support/memory.test.ts", "loose.test.ts", "domain/memory/long.test.ts"],
    lines: { "domain/memory/long.test.ts": 501 },
  });
  assert.deepEqual(broken, [
    "tests/adapters/d1/gone: no src/adapters/d1/gone",
    "tests/cli/extra: no scripts/cli/extra",
    "tests/domain/memories: no src/domain/memories",
    "tests/domain/memory/long.test.ts: 501 lines",
    "tests/integration: not a folder of the layout",
    "tests/invariants/deep: keep invariants/ flat",
    "tests/loose.test.ts: a test at the top of tests/",
    "tests/support/memory.test.ts: a test in the support folder support/",
  ]);
});

test("the layout check catches a src/ folder with no tests, and an excuse that is no longer true", () => {
  const problems = layoutProblems({
    srcFolders: ["domain", "domain/text", "domain/model"],
    scriptFolders: [],
    testFolders: ["domain", "domain/model"],
    testFiles: [],
  });
  assert.deepEqual(problems, [
    "src/domain/model: has tests now, take it off the list",
    "src/domain/text: no tests/domain/text",
  ]);
});

/**
 * Vitest's tests and their support reach src/ as `@src/…`, so a test that moves with its module
 * keeps its imports. `tests/fakes/` keeps relative paths: the eval scripts bundle its stores
 * with esbuild, which knows no alias.
 */
const CLIMB_TO_SRC = /(?:from\s+|import\(\s*)["'](?:\.\.\/)+src\//;

/** The files of `sources` ([path below tests/, text]) that reach src/ by climbing out of tests/. */
function climbingImports(sources) {
  return sources
    .filter(([file, text]) => !file.startsWith("fakes/") && CLIMB_TO_SRC.test(text))
    .map(([file]) => `tests/${file}: imports src/ by a relative path; write @src/…`);
}

test("tests import src/ as @src/, the fakes excepted", () => {
  const sources = walk("tests")
    .files.filter((f) => /\.tsx?$/.test(f) && !f.startsWith("fixtures/"))
    .map((f) => [f, readFileSync(path.join(root, "tests", f), "utf8")]);
  assert.ok(sources.length > 200, `only ${sources.length} files read`);
  assert.deepEqual(climbingImports(sources), []);
});

test("the import check catches a climb to src/, static or dynamic, and lets @src/ and the fakes be", () => {
  assert.deepEqual(
    climbingImports([
      ["domain/a.test.ts", 'import { a } from "../../src/domain/a";'],
      ["support/b.ts", 'const b = await import("../../src/b");'],
      ["domain/c.test.ts", 'import { c } from "@src/domain/c";'],
      ["fakes/d.ts", 'import type { D } from "../../src/domain/d";'],
      ["domain/e.test.ts", 'import { e } from "./e-cases";'],
    ]),
    [
      "tests/domain/a.test.ts: imports src/ by a relative path; write @src/…",
      "tests/support/b.ts: imports src/ by a relative path; write @src/…",
    ],
  );
});
