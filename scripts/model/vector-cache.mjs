// A file of vectors already computed, in front of an embedder, for runs that embed the same texts
// again and again (evaluations and their sweeps). Exact, not approximate: each text runs alone
// through the model (embedder.mjs), so its vector never depends on what it was sent with, and a
// vector read back is the one the model would compute again (as float32, which is what the
// Worker stores). The file belongs to one model
// version and one way of making vectors (its path says which; local-service.mjs
// `vectorCacheFile`): never share it between versions.
//
// Format: one JSON line per text, `{"k": sha256(text), "t": tokens, "v": base64 float32}`,
// appended as vectors are computed; a torn last line (a killed run) is skipped on load.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sha256 } from "./cache.mjs";

function decode(b64) {
  const bytes = Buffer.from(b64, "base64");
  return Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
}

const encode = (vector) => Buffer.from(new Float32Array(vector).buffer).toString("base64");

/** Reads the cache file (absent: empty), keeping lines of `dims` numbers only. */
export function loadVectorCache(file, dims) {
  const entries = new Map();
  if (!existsSync(file)) return entries;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      const { k, t, v } = JSON.parse(line);
      const vector = decode(v);
      if (typeof k === "string" && vector.length === dims) entries.set(k, { tokens: t, vector });
    } catch {
      // a line cut short by a killed run: computed again when asked for
    }
  }
  return entries;
}

/**
 * `embedder` with the cache in front: texts found are answered from it, the rest run through the
 * model (in one call, in order) and are appended to the file. Same interface as the embedder,
 * plus `cacheStats()`.
 */
export function withVectorCache(embedder, file) {
  mkdirSync(path.dirname(file), { recursive: true });
  const entries = loadVectorCache(file, embedder.dims);
  let hits = 0;
  let misses = 0;
  return {
    ...embedder,
    async embed(texts) {
      const keys = texts.map((t) => sha256(Buffer.from(t, "utf8")));
      const missing = [...new Set(keys.filter((k) => !entries.has(k)))];
      const byKey = new Map(keys.map((k, i) => [k, texts[i]]));
      if (missing.length > 0) {
        const computed = await embedder.embed(missing.map((k) => byKey.get(k)));
        const lines = [];
        missing.forEach((k, i) => {
          const vector = computed.vectors[i];
          const tokens = embedder.encode(byKey.get(k)).length;
          entries.set(k, { tokens, vector });
          lines.push(JSON.stringify({ k, t: tokens, v: encode(vector) }));
        });
        appendFileSync(file, `${lines.join("\n")}\n`);
      }
      misses += missing.length;
      hits += keys.length - missing.length;
      const found = keys.map((k) => entries.get(k));
      return { vectors: found.map((e) => e.vector), tokens: found.reduce((n, e) => n + e.tokens, 0) };
    },
    cacheStats: () => ({ hits, misses, size: entries.size }),
  };
}
