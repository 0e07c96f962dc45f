// Imports the project's pure TypeScript modules (src/domain) from Node scripts, so the CLI runs
// exactly the planning code the tests cover. Node strips the types itself (Node ≥ 22.18; `npm
// run` uses the project's pinned Node); this hook only resolves the extensionless relative
// imports the sources use to their .ts files.
import { existsSync } from "node:fs";
import { registerHooks } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { root } from "./dev-vars.mjs";

let registered = false;

function register() {
  if (registered) return;
  if (!process.features.typescript) {
    throw new Error(
      `Node ${process.version} cannot load TypeScript; run through npm (npm run akasha -- …), which uses the project's Node 22`,
    );
  }
  registerHooks({
    resolve(specifier, context, next) {
      const relative = specifier.startsWith("./") || specifier.startsWith("../");
      if (relative && context.parentURL?.endsWith(".ts") && !/\.[cm]?[jt]s$/.test(specifier)) {
        const candidate = new URL(`${specifier}.ts`, context.parentURL);
        if (existsSync(fileURLToPath(candidate))) return next(candidate.href, context);
      }
      return next(specifier, context);
    },
  });
  registered = true;
}

/** Imports a module by its path from the project root, e.g. "src/domain/memory/scope-migration.ts". */
export async function importTs(relativePath) {
  register();
  return import(pathToFileURL(path.join(root, relativePath)).href);
}
