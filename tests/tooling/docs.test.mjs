// Runs in Node (not workerd): it reads the repository's files. `npm run check` runs it. It keeps
// the documentation in step with the code (docs/README.md): the README stays a guide with its
// set-up commands, every page is in its index, and the pages that list the turn's tools and
// commands name every one registered. Each check is also shown catching a fixture.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import {
  pagesOf,
  readmeProblems,
  registeredNames,
  repositoryRegistry,
  unlisted,
  unnamed,
} from "../../scripts/lib/docs-checks.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file) => readFileSync(path.join(root, file), "utf8");

test("the README is a guide of at most 500 lines with both set-up commands", () => {
  assert.deepEqual(readmeProblems(read("README.md")), []);
});

test("the README check catches a long README and a changed set-up command", () => {
  const guide = "# A\n\n```sh\nnpm install && npm start\n```\n\n```sh\nnpm install && npm test\n```\n";
  assert.deepEqual(readmeProblems(guide), []);
  assert.equal(readmeProblems(guide + "x\n".repeat(500)).length, 1);
  assert.equal(readmeProblems(guide.replace("npm install && npm test", "npm ci && npm test")).length, 1);
  assert.equal(readmeProblems("npm install && npm start # and more\nnpm install && npm test\n").length, 1);
});

test("the docs index lists every page of docs/ and the index of each folder in it", () => {
  const pages = pagesOf(path.join(root, "docs"));
  assert.ok(pages.includes("experiments/README.md") && pages.includes("decisions/README.md"));
  assert.deepEqual(unlisted(read("docs/README.md"), pages), []);
});

test("the experiments and decisions indexes list every file of their folder", () => {
  for (const folder of ["docs/experiments", "docs/decisions"]) {
    const files = pagesOf(path.join(root, folder));
    assert.ok(files.length > 0, folder);
    assert.deepEqual(unlisted(read(`${folder}/README.md`), files), [], folder);
  }
});

test("the index check catches a page that is not linked", () => {
  const index = "| [memory.md](memory.md#scopes) | … |\n- [runs](experiments/README.md)\n";
  assert.deepEqual(unlisted(index, ["memory.md", "experiments/README.md"]), []);
  assert.deepEqual(unlisted(index, ["memory.md", "capacity.md"]), ["capacity.md"]);
});

test("the architecture page and the README name every registered tool and command", () => {
  const registered = repositoryRegistry(root);
  assert.ok(registered.tools.length >= 16, `only ${registered.tools.length} tools found`);
  assert.ok(registered.commands.includes("help") && registered.commands.includes("session"));
  for (const page of ["docs/architecture.md", "README.md"]) {
    assert.deepEqual(unnamed(read(page), registered), [], page);
  }
});

test("the registry is read by declared names, and a page missing one is caught", () => {
  const registry = [
    'import { aTool, bTool } from "./tools/ab";',
    'import { helpCommand } from "./commands/help";',
    "commands.push(helpCommand(() => commands));",
    "return { tools: [aTool, bTool], guard: g };",
  ].join("\n");
  const modules = {
    "./tools/ab":
      'const B = "b_write";\nexport const aTool: Tool = { name: "a_read" };\nexport const bTool: Tool = {\n  spec: { name: B },\n};',
    "./commands/help": 'export function helpCommand(all) {\n  return { name: "help", usage: "/help" };\n}',
  };
  const names = registeredNames(registry, (s) => modules[s]);
  assert.deepEqual(names, { tools: ["a_read", "b_write"], commands: ["help"] });
  assert.deepEqual(unnamed("tools `a_read`, `b_write`; `/help` lists them", names), []);
  assert.deepEqual(unnamed("tools `a_read`; commands `/helpful`", names), ["b_write", "/help"]);
  assert.throws(() => registeredNames(registry, (s) => (s === "./tools/ab" ? "" : modules[s])), /no name/);
});
