// Runs in Node (not workerd) as part of `npm run lint`: no two files of src/ in different layers
// (domain, adapters, composition, workers, durable-objects; docs/architecture.md#layers) share a
// base name, so that a name says which file is meant (docs/architecture.md#glossary).
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

const root = path.resolve(import.meta.dirname, "../..");

/** Base names (no folder, no extension) found in more than one layer, each with its files. */
function sharedAcrossLayers(files) {
  const byName = new Map();
  for (const file of files) {
    const parts = file.split("/");
    const layer = parts.length > 2 ? parts[1] : "(src)";
    const base = parts.at(-1).replace(/\.[^.]+$/, "");
    const entry = byName.get(base) ?? { layers: new Set(), files: [] };
    entry.layers.add(layer);
    entry.files.push(file);
    byName.set(base, entry);
  }
  return [...byName]
    .filter(([, e]) => e.layers.size > 1)
    .map(([base, e]) => `${base}: ${e.files.sort().join(", ")}`)
    .sort();
}

test("no two files in different layers of src/ share a base name", () => {
  const files = readdirSync(path.join(root, "src"), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)).replaceAll(path.sep, "/"));
  assert.ok(files.length > 100, `only ${files.length} files found`);
  assert.deepEqual(sharedAcrossLayers(files), []);
});

test("the check catches a shared base name across layers, whatever the extension, and allows one inside a layer", () => {
  assert.deepEqual(
    sharedAcrossLayers([
      "src/domain/spend/spend-gate.ts",
      "src/durable-objects/spend-gate.ts",
      "src/workers/dashboard/page.tsx",
      "src/domain/agent/page.ts",
      "src/domain/memory/store.ts",
      "src/domain/knowledge/store.ts",
    ]),
    [
      "page: src/domain/agent/page.ts, src/workers/dashboard/page.tsx",
      "spend-gate: src/domain/spend/spend-gate.ts, src/durable-objects/spend-gate.ts",
    ],
  );
});
