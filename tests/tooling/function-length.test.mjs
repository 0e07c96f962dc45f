// Runs in Node (not workerd) as part of `npm run lint`: no function in src/ is longer than 100
// lines (the project's style, docs/architecture.md). A longer one is split by what it does, as
// the session operations became a table of handlers.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "../..");
const LIMIT = 100;

/** Every function-like node with a body (declarations, methods, arrows, accessors) and its line count. */
function functionLengths(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const parent = node.parent;
      const name =
        node.name?.getText(source) ??
        (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))
          ? parent.name.getText(source)
          : "(anonymous)");
      found.push({ where: `${file}:${first + 1}`, name, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles() {
  return readdirSync(path.join(root, "src"), { recursive: true })
    .map((f) => `src/${String(f).replaceAll(path.sep, "/")}`)
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts"));
}

test(`no function in src/ exceeds ${LIMIT} lines`, () => {
  const long = sourceFiles()
    .flatMap((f) => functionLengths(f, readFileSync(path.join(root, f), "utf8")))
    .filter((f) => f.lines > LIMIT)
    .map((f) => `${f.where} ${f.name}: ${f.lines} lines`);
  assert.deepEqual(long, []);
});

test("the measure counts every kind of function, nested ones included", () => {
  const body = (n) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");
  const text = [
    `export function declared() {\n${body(3)}\n}`,
    `const arrow = async () => {\n${body(101)}\n};`,
    `const object = {\n  method() {\n${body(1)}\n  },\n};`,
    `function outer() {\n  const inner = function () {\n${body(2)}\n  };\n}`,
  ].join("\n");
  const lengths = Object.fromEntries(functionLengths("x.ts", text).map((f) => [f.name, f.lines]));
  assert.deepEqual(lengths, { declared: 5, arrow: 103, method: 3, outer: 6, inner: 4 });
});
