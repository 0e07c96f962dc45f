// Runs in Node (not workerd): it reads the repository's files. `npm run check` runs it. It
// proves that nothing in the repository depends on files outside it (docs/invariants.md#the-repository-stands-alone),
// and on small fixtures that the check catches what it should and allows only the one exception.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import {
  anchorsOf,
  docCitations,
  findOutsideReferences,
  headingAnchor,
  repositoryFiles,
  scanRepository,
} from "../../scripts/lib/outside-references.mjs";

const root = path.resolve(import.meta.dirname, "../..");

// Fixture text is assembled from pieces so that this file itself stays free of what it checks.
const UP = "../";
const SECTION = "\u00a7";
const OUTSIDE_DATA = `${UP}shared/eval/cmrc2018/passages.jsonl`;
const j = (...parts) => parts.join("");

const kinds = (file, text, files) => findOutsideReferences(file, text, files).map((f) => f.kind);

test("no tracked file depends on anything outside the repository", () => {
  const found = scanRepository(root).map((f) => `${f.file}:${f.line}: ${f.kind}`);
  assert.deepEqual(found, []);
});

test("every citation of docs/ names a page and a heading that exist", () => {
  const broken = [];
  for (const file of repositoryFiles(root)) {
    if (!/\.(ts|mjs|cjs|js|sql|md|toml|json)$/.test(file) || !existsSync(path.join(root, file))) continue;
    for (const c of docCitations(file, readFileSync(path.join(root, file), "utf8"))) {
      const page = path.join(root, c.doc);
      if (!existsSync(page)) broken.push(`${file}:${c.line}: ${c.doc} does not exist`);
      else if (c.anchor && !anchorsOf(readFileSync(page, "utf8")).has(c.anchor))
        broken.push(`${file}:${c.line}: ${c.doc} has no heading #${c.anchor}`);
    }
  }
  assert.deepEqual(broken, []);
});

test("derives heading anchors as GitHub does", () => {
  assert.equal(headingAnchor("QQ: URL validation (op 13)"), "qq-url-validation-op-13");
  assert.equal(
    headingAnchor("persons, person_accounts, account_observations"),
    "persons-person_accounts-account_observations",
  );
  assert.equal(headingAnchor("FTS-only still works"), "fts-only-still-works");
});

test("catches a pointer to a design document outside the repository", () => {
  assert.equal(kinds("README.md", j("Design: `", UP, "shared/DESIGN", ".md`")).length, 2);
  assert.equal(kinds("src/domain/memory/scope.ts", `// see ${UP}${UP}${UP}${UP}notes.md`).length, 1);
  assert.equal(kinds("scripts/start.mjs", j("const notes = '/work", "/shared/notes.md';")).length, 1);
});

test("catches citations of documents the repository does not contain", () => {
  for (const line of [
    `// Scopes (DESIGN ${SECTION}3.2).`,
    j("// reference", ` 003 ${SECTION}7`),
    j("// reference", " 002, the gate table"),
    `// the reference design (${SECTION}4.3)`,
    j("// see protocols/", "qq-official-bot.md"),
    `// spec ${SECTION}2.2 suggests a window`,
    j("// platform", "-facts: topK"),
    j("// as STYLE", ".md says"),
  ]) {
    assert.notEqual(kinds("src/domain/x.ts", line).length, 0, line);
  }
});

test("allows paths and citations that stay inside the repository", () => {
  const files = [
    "README.md",
    "src/domain/kernel/result.ts",
    "tests/fixtures/dependency-rules/src/a.ts",
    "docs/memory.md",
  ];
  for (const [file, line] of [
    ["src/domain/agent/turn.ts", `import { ok } from "${UP}kernel/result";`],
    ["tests/integration/a.test.ts", `import { ok } from "${UP}${UP}src/domain/kernel/result";`],
    ["docs/architecture.md", `see [the README](${UP}README.md)`],
    ["src/domain/memory/scope.ts", "// docs/memory.md#soft-scope"],
    ["tests/tooling/x.test.mjs", `const fixture = "${UP}fixtures/dependency-rules";`],
  ]) {
    assert.deepEqual(kinds(file, line, files), [], `${file}: ${line}`);
  }
});

test("reads prose paths from the root when they name nothing next to the file", () => {
  const files = ["scripts/eval/run.mjs"];
  assert.equal(kinds("scripts/eval/run.mjs", `// on the formats of ${UP}shared/eval`, files).length, 1);
});

test("allows an outside data path only as the default of a flag or environment variable", () => {
  const overridable = [
    `const passages = flags.passages ?? process.env.AKASHA_EVAL_DATA ?? "${OUTSIDE_DATA}";`,
    `const dir = process.env.EVAL_DATA_DIR || "${OUTSIDE_DATA}";`,
  ];
  for (const line of overridable) {
    assert.deepEqual(kinds("scripts/eval/run.mjs", line, []), [], line);
    assert.deepEqual(kinds("scripts/bench/run.mjs", line, []), [], line);
    // Outside evaluation and benchmark scripts the same line is still a dependency.
    assert.equal(kinds("src/workers/routes/eval.routes.ts", line, []).length, 1, line);
  }
  for (const line of [
    `const passages = "${OUTSIDE_DATA}";`,
    `const passages = "${OUTSIDE_DATA}" ?? flags.passages;`,
    `// default: ${OUTSIDE_DATA}`,
  ]) {
    assert.equal(kinds("scripts/eval/run.mjs", line, []).length, 1, line);
  }
});
