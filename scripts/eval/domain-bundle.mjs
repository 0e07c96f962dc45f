// The domain code a Worker-less evaluation runs, bundled with esbuild into one module (the
// tokenizer imports JSON, as the Worker's bundle does) and imported.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { root } from "../lib/dev-vars.mjs";

export const readJsonl = (file) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

/** Every export of `modules` (paths from the repository root), as one imported module. */
export async function bundleDomain(modules) {
  const out = await build({
    stdin: {
      contents: modules.map((m) => `export * from "./${m}";`).join("\n"),
      resolveDir: root,
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "error",
  });
  const file = path.join(mkdtempSync(path.join(tmpdir(), "akasha-eval-")), "bundle.mjs");
  writeFileSync(file, out.outputFiles[0].text);
  return import(pathToFileURL(file).href);
}

/** Milliseconds of a day's hour (`hh`) in China, where the MemoryBank days are read. */
export const shanghai = (day, hh = 10) => Date.parse(`${day}T${String(hh).padStart(2, "0")}:00:00+08:00`);

/** One day of a user's chat as dream turns, a minute apart, spoken in their private chat. */
export const dreamTurnsOfDay = (day, conv) =>
  day.turns.map((t, n) => ({
    seq: n + 1,
    role: t.role,
    name: t.role === "user" ? t.speaker : null,
    account: t.role === "user" ? `qq:user:${conv}` : null,
    messageId: t.dia_id,
    text: t.text,
    ts: shanghai(day.date) + n * 60_000,
    explicitSensitivity: null,
    identity: null,
  }));
