// The detectors as they stood at a given commit, importable next to today's: an evaluation
// prints the same-run baseline of the code it replaced, read from git rather than kept as a
// copy. The commit's src/domain is extracted once under .eval/baseline-<commit>/ (inside the
// repository, so its package imports resolve to the same node_modules).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";
import { importTs } from "../lib/ts-import.mjs";

/** Imports `file` (e.g. "src/domain/memory/sensitivity.ts") as it was at `commit`. */
export async function importAt(commit, file) {
  const full = execFileSync("git", ["rev-parse", "--verify", `${commit}^{commit}`], { cwd: root })
    .toString()
    .trim();
  const dir = path.join(".eval", `baseline-${full.slice(0, 12)}`);
  if (!existsSync(path.join(root, dir, "src", "domain"))) {
    mkdirSync(path.join(root, dir), { recursive: true });
    const tar = execFileSync("git", ["archive", full, "src/domain"], { cwd: root, maxBuffer: 1 << 28 });
    execFileSync("tar", ["-x", "-C", path.join(root, dir)], { input: tar });
  }
  return importTs(path.join(dir, file));
}
