// Where fetched models live (outside the repository, once per machine) and the check every
// reader runs before it trusts them: each pinned file present with exactly its sha256.
//
// The cache root is AKASHA_MODEL_CACHE when set, else $XDG_CACHE_HOME/akasha/models, else
// ~/.cache/akasha/models; a model's files sit in <root>/<name>/<version>/.
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export function cacheRoot(env = process.env) {
  if (env.AKASHA_MODEL_CACHE) return path.resolve(env.AKASHA_MODEL_CACHE);
  const base = env.XDG_CACHE_HOME ? path.resolve(env.XDG_CACHE_HOME) : path.join(os.homedir(), ".cache");
  return path.join(base, "akasha", "models");
}

export function modelDir(spec, root = cacheRoot()) {
  return path.join(root, spec.name, spec.version);
}

export async function sha256File(file) {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest("hex");
}

export function sha256(bytes) {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A model that is not in the cache or whose files are not the pinned ones. */
export class ModelUnavailable extends Error {
  name = "ModelUnavailable";
}

/**
 * The paths of the model's files in `dir`, each checked against its pinned sha256; throws
 * ModelUnavailable naming the first file that is missing or differs, and how to fetch it.
 */
export async function verifiedModel(spec, dir = modelDir(spec)) {
  const paths = {};
  for (const [role, file] of Object.entries(spec.files)) {
    const full = path.join(dir, file.name);
    if (!existsSync(full))
      throw new ModelUnavailable(
        `${spec.name} ${spec.version}: ${full} is missing; run: npm run model:fetch`,
      );
    const actual = await sha256File(full);
    if (actual !== file.sha256)
      throw new ModelUnavailable(
        `${spec.name} ${spec.version}: ${full} has sha256 ${actual}, expected ${file.sha256}; ` +
          `delete ${dir} and run: npm run model:fetch`,
      );
    paths[role] = full;
  }
  return paths;
}
