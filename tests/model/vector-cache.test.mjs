// The file of computed vectors in front of the embedder: texts seen before are answered from the
// file and never reach the model again, across processes; a torn line from a killed run and a
// vector of other dimensions are computed afresh rather than trusted.
import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, it } from "node:test";
import { loadVectorCache, withVectorCache } from "../../scripts/model/vector-cache.mjs";

/** An embedder of 4 dimensions that records what it was asked to embed. */
function countingEmbedder() {
  const seen = [];
  return {
    seen,
    dims: 4,
    encode: (text) => [...text],
    async embed(texts) {
      seen.push(...texts);
      return {
        vectors: texts.map((t) => [t.length, t.codePointAt(0) ?? 0, 1, 0.25]),
        tokens: texts.reduce((n, t) => n + t.length, 0),
      };
    },
  };
}

const dirs = [];
const tempFile = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "vector-cache-"));
  dirs.push(dir);
  return path.join(dir, "nested", "vectors.jsonl");
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("the vector cache", () => {
  it("embeds each new text once, answers repeats from the file, and keeps the order asked", async () => {
    const file = tempFile();
    const model = countingEmbedder();
    const cached = withVectorCache(model, file);
    const first = await cached.embed(["猫", "狗狗", "猫"]);
    assert.deepEqual(model.seen, ["猫", "狗狗"]);
    assert.deepEqual(first.vectors, [
      [1, 0x732b, 1, 0.25],
      [2, 0x72d7, 1, 0.25],
      [1, 0x732b, 1, 0.25],
    ]);
    assert.equal(first.tokens, 4);
    const second = await cached.embed(["狗狗", "鱼"]);
    assert.deepEqual(model.seen, ["猫", "狗狗", "鱼"]);
    assert.deepEqual(second.vectors[0], [2, 0x72d7, 1, 0.25]);
    assert.deepEqual(cached.cacheStats(), { hits: 2, misses: 3, size: 3 });

    // A later process reads the file: nothing reaches its model.
    const later = countingEmbedder();
    const again = await withVectorCache(later, file).embed(["鱼", "猫"]);
    assert.deepEqual(later.seen, []);
    assert.deepEqual(again.vectors, [
      [1, 0x9c7c, 1, 0.25],
      [1, 0x732b, 1, 0.25],
    ]);
    assert.equal(again.tokens, 2);
  });

  it("skips a torn line and vectors of other dimensions, computing those texts again", async () => {
    const file = tempFile();
    await withVectorCache(countingEmbedder(), file).embed(["一", "二"]);
    const lines = readFileSync(file, "utf8").trim().split("\n");
    assert.equal(lines.length, 2);
    appendFileSync(file, lines[1].slice(0, 20));
    assert.equal(loadVectorCache(file, 4).size, 2);
    assert.equal(loadVectorCache(file, 8).size, 0);

    const wider = { ...countingEmbedder(), dims: 8 };
    wider.embed = async (texts) => ({
      vectors: texts.map(() => new Array(8).fill(0.5)),
      tokens: texts.length,
    });
    const out = await withVectorCache(wider, file).embed(["一"]);
    assert.equal(out.vectors[0].length, 8);
  });
});
