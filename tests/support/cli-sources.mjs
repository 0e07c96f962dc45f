/**
 * The CLI's source files: its entry, its argument parser, `more` (paths from the repository
 * root) and every command module under scripts/cli, the message catalogues left out.
 */
import { readdirSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export function cliSources(...more) {
  const dir = path.join(root, "scripts/cli");
  const files = readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith(".mjs") && !f.startsWith("i18n"))
    .map((f) => path.join(dir, f));
  return [
    path.join(root, "scripts/akasha.mjs"),
    path.join(root, "scripts/lib/args.mjs"),
    ...more.map((m) => path.join(root, m)),
    ...files,
  ];
}
