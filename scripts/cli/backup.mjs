// `npm run akasha -- backup [--remote] [--out DIR] [--persist-to DIR]`: remotely, a D1 Time
// Travel bookmark of the production database (D1 keeps 30 days of history; the bookmark names
// this moment) with the command that restores it; locally, a consistent copy of the local D1
// database file (SQLite `VACUUM INTO`, safe while `npm start` runs) under a timestamped name.
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { CliError, command as define } from "../lib/args.mjs";
import { root } from "../lib/dev-vars.mjs";
import { wranglerSync } from "../lib/wrangler.mjs";
import { output } from "./format.mjs";
import { t } from "./i18n/lang.mjs";

export const restoreCommand = (bookmark) =>
  `npx wrangler d1 time-travel restore DB --env production --bookmark ${bookmark}`;

/** The bookmark in `wrangler d1 time-travel info --json` output. */
export function bookmarkOf(stdout) {
  try {
    const parsed = JSON.parse(stdout);
    const b = parsed?.bookmark ?? parsed?.[0]?.bookmark;
    return typeof b === "string" && b !== "" ? b : null;
  } catch {
    return null;
  }
}

/** `akasha-d1-2026-12-01T14-03-05-123Z.sqlite` */
export const backupName = (at, suffix = "") =>
  `akasha-d1-${new Date(at).toISOString().replace(/[:.]/g, "-")}${suffix}.sqlite`;

function remote() {
  const r = wranglerSync(["d1", "time-travel", "info", "DB", "--env", "production", "--json"], {
    stdio: "pipe",
  });
  const bookmark = r.status === 0 ? bookmarkOf(r.stdout) : null;
  if (!bookmark)
    throw new CliError(t("backup.noBookmark", { output: (r.stderr || r.stdout || "").trim() }), 1);
  return {
    kind: "time-travel",
    database: "DB (production)",
    bookmark,
    at: new Date().toISOString(),
    restore: restoreCommand(bookmark),
  };
}

async function vacuumInto(source, target) {
  // node:sqlite is still flagged experimental; its one-time warning would only be noise here.
  const emit = process.emitWarning;
  process.emitWarning = (w, ...rest) =>
    String(w).includes("SQLite") ? undefined : emit.call(process, w, ...rest);
  try {
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(source, { readOnly: true });
    try {
      db.exec(`VACUUM INTO '${target.replaceAll("'", "''")}'`);
    } finally {
      db.close();
    }
  } finally {
    process.emitWarning = emit;
  }
}

async function local(options) {
  const state = options.persistTo ? path.resolve(options.persistTo) : path.join(root, ".wrangler", "state");
  const dir = path.join(state, "v3", "d1", "miniflare-D1DatabaseObject");
  const files = existsSync(dir)
    ? readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")
    : [];
  if (files.length === 0) throw new CliError(t("backup.noLocal", { dir }), 1);
  const out = path.resolve(process.env.INIT_CWD ?? process.cwd(), options.out ?? "backups");
  mkdirSync(out, { recursive: true });
  const at = Date.now();
  const copies = [];
  for (const f of files) {
    const target = path.join(out, backupName(at, files.length > 1 ? `-${f.slice(0, 8)}` : ""));
    await vacuumInto(path.join(dir, f), target);
    copies.push({ from: path.join(dir, f), to: target });
  }
  return { kind: "local-copy", at: new Date(at).toISOString(), copies };
}

export function render(r) {
  if (r.kind === "time-travel")
    return t("backup.bookmark", { database: r.database, at: r.at, bookmark: r.bookmark, restore: r.restore });
  return r.copies.map((c) => t("backup.copied", { from: c.from, to: c.to })).join("\n");
}

export function command(name = "backup") {
  return define(name)
    .description(t("backup.desc"))
    .option("--remote", t("backup.opt.remote"))
    .option("--out <dir>", t("backup.opt.out"))
    .option("--persist-to <dir>", t("backup.opt.persistTo"))
    .option("--json", t("opt.json"))
    .action(async (o) => output(o, o.remote ? remote() : await local(o), render));
}
