// Reads .dev.vars (dotenv syntax) and fills what it leaves unset with the embedded dev defaults.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..", "..");

export function readDevVars(file = path.join(root, ".dev.vars")) {
  const vars = {};
  if (!existsSync(file)) return vars;
  for (const line of readFileSync(file, "utf8").split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith("#")) continue;
    let value = match[2];
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    vars[match[1]] = value;
  }
  return vars;
}

/** Values the local Worker runs with, and which of them came from the embedded defaults. */
export function effectiveDevVars() {
  const defaults = JSON.parse(readFileSync(path.join(root, "src/composition/dev-defaults.json"), "utf8"));
  const fromFile = readDevVars();
  const values = { ...fromFile };
  const defaulted = [];
  for (const [key, value] of Object.entries(defaults)) {
    if (!values[key]) {
      values[key] = value;
      defaulted.push(key);
    }
  }
  return { values, defaulted, fromFile };
}
