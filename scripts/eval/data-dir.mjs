// Where the public evaluation datasets live: AKASHA_EVAL_DATA, else the datasets' folder beside
// the repository (or beside the folder of its work trees). The folder holds locomo/, kdconv/,
// memorybank-zh/, cmrc2018/ and vue-docs-zh-cn/ in the converted formats the evaluations read.
import { existsSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";

export function evalDataDir(env = process.env) {
  if (env.AKASHA_EVAL_DATA) return path.resolve(env.AKASHA_EVAL_DATA);
  const near = [path.join(root, "..", "shared", "eval"), path.join(root, "..", "..", "shared", "eval")];
  return near.find((dir) => existsSync(dir)) ?? near[0];
}
