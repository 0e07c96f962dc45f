// The places a pinned model can come from, each returning the model's files as bytes checked
// against their pinned sha256, and the one way they are written into the cache.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { unzipSync } from "fflate";
import { sha256 } from "./cache.mjs";
import { mavenJarPath } from "./pinned.mjs";

export const HUB_BASE = "https://huggingface.co";
export const MAVEN_BASE = "https://repo1.maven.org/maven2";

/** A download, bounded in time; a non-2xx answer is an error naming the status. */
async function download(url, fetchImpl, timeoutMs) {
  const res = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "follow" });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** Throws unless `bytes` are exactly the pinned file. */
function checked(file, bytes, where) {
  const actual = sha256(bytes);
  if (actual !== file.sha256)
    throw new Error(`${where}: ${file.name} has sha256 ${actual}, expected the pinned ${file.sha256}`);
  return bytes;
}

/** The ordinary way: each file from the model hub at the pinned revision. */
export async function fromHub(spec, { base = HUB_BASE, fetchImpl = fetch, timeoutMs = 300_000 } = {}) {
  const out = {};
  for (const [role, file] of Object.entries(spec.files)) {
    const url = `${base}/${spec.hub.repo}/resolve/${spec.hub.revision}/${file.hubPath}`;
    out[role] = checked(file, await download(url, fetchImpl, timeoutMs), url);
  }
  return { files: out, source: `${spec.hub.repo}@${spec.hub.revision}` };
}

/** The files inside a jar (a zip), each checked; the jar itself is checked first. */
export function fromJarBytes(spec, jar, where) {
  const jarHash = sha256(jar);
  if (jarHash !== spec.maven.sha256)
    throw new Error(`${where}: jar has sha256 ${jarHash}, expected the pinned ${spec.maven.sha256}`);
  const wanted = new Set(Object.values(spec.files).map((f) => f.jarEntry));
  const entries = unzipSync(jar, { filter: (f) => wanted.has(f.name) });
  const out = {};
  for (const [role, file] of Object.entries(spec.files)) {
    const bytes = entries[file.jarEntry];
    if (!bytes) throw new Error(`${where}: the jar holds no ${file.jarEntry}`);
    out[role] = checked(file, bytes, `${where}!${file.jarEntry}`);
  }
  return out;
}

/** From the Maven package that ships the model, at the pinned version. */
export async function fromMaven(spec, { base = MAVEN_BASE, fetchImpl = fetch, timeoutMs = 300_000 } = {}) {
  const url = `${base}/${mavenJarPath(spec.maven)}`;
  const jar = await download(url, fetchImpl, timeoutMs);
  return {
    files: fromJarBytes(spec, jar, url),
    source: `${spec.maven.group}:${spec.maven.artifact}:${spec.maven.version}`,
  };
}

/** From a jar already on disk (downloaded by hand). */
export function fromJarFile(spec, file) {
  return { files: fromJarBytes(spec, readFileSync(file), file), source: path.basename(file) };
}

/**
 * Writes checked files into `dir` whole or not at all: into a sibling directory first, renamed
 * over `dir` once every file is written, so a reader never sees half a model.
 */
export function install(spec, dir, { files, source }) {
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  for (const [role, file] of Object.entries(spec.files))
    writeFileSync(path.join(partial, file.name), files[role]);
  const manifest = {
    name: spec.name,
    version: spec.version,
    source,
    files: Object.fromEntries(Object.values(spec.files).map((f) => [f.name, f.sha256])),
  };
  writeFileSync(path.join(partial, "source.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
}
