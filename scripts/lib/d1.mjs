// Runs SQL against the project's D1 database through wrangler: the local one (default, the
// same state `npm start` uses) or, with remote: true, the production one.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { wranglerSync } from "./wrangler.mjs";

function target({ remote = false, persistTo } = {}) {
  if (remote) return ["--remote", "--env", "production"];
  return persistTo ? ["--local", "--persist-to", persistTo] : ["--local"];
}

/** Runs one statement and returns its rows. */
export function d1Query(sql, options = {}) {
  const result = wranglerSync(["d1", "execute", "DB", ...target(options), "--json", "--command", sql], {
    stdio: "pipe",
  });
  if (result.status !== 0) throw new Error(`wrangler d1 execute failed:\n${result.stderr || result.stdout}`);
  const parsed = JSON.parse(result.stdout);
  return parsed.flatMap((r) => r.results ?? []);
}

/** Runs a file of statements (wrangler applies it as one unit). */
export function d1ExecuteFile(sqlText, options = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "akasha-sql-"));
  const file = path.join(dir, "statements.sql");
  writeFileSync(file, sqlText);
  try {
    const result = wranglerSync(["d1", "execute", "DB", ...target(options), "--json", "--file", file], {
      stdio: "pipe",
    });
    if (result.status !== 0)
      throw new Error(`wrangler d1 execute failed:\n${result.stderr || result.stdout}`);
    return JSON.parse(result.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** SQL string literal (single quotes doubled); for values inside generated statement files. */
export function sqlLiteral(value) {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "NULL";
  return `'${String(value).replaceAll("'", "''")}'`;
}
