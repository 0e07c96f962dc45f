// The inspect → apply → rollback flow shared by the owner's data migrations (docs/memory.md#owner-migrations).
//
//   inspect            reads the database (read-only) and writes a JSON plan: every row it
//                      would change with that row's before-state, each with approval "pending"
//   apply --plan F     without --confirm: a dry run that prints what would change and stops;
//                      with --confirm: backs up (a copy of the local database files, or a D1
//                      Time Travel bookmark for --remote), applies only approved rows — or every
//                      safe row with --apply-all-safe — and records what it did in the plan file
//   rollback --plan F  restores the applied rows from the plan's before-states (--confirm)
//
// The planning and validation are the pure functions in src/domain/memory, the SQL those of
// src/adapters/d1/owner-migrations, which the
// tests cover; this file only moves them between wrangler, the plan file and the terminal.
import { cpSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CliError, command as define } from "../lib/args.mjs";
import { d1ExecuteFile, d1Query } from "../lib/d1.mjs";
import { root } from "../lib/dev-vars.mjs";
import { importTs } from "../lib/ts-import.mjs";
import { wranglerSync } from "../lib/wrangler.mjs";
import { t } from "./i18n/lang.mjs";

/** Thrown for refusals: printed as a clear message with exit code 2, never as a stack. */
export class Refusal extends Error {}

function target(args) {
  if (args.flags.has("local") && args.flags.has("remote")) throw new Refusal(t("plan.localOrRemote"));
  const remote = args.flags.has("remote");
  return {
    database: remote ? "remote" : "local",
    d1: {
      remote,
      ...(args.options["persist-to"] ? { persistTo: path.resolve(args.options["persist-to"]) } : {}),
    },
  };
}

/** Paths are relative to where `npm run` was started, not to the project root npm runs in. */
const fromCaller = (file) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

function readPlan(file) {
  if (!file) throw new Refusal(t("plan.planRequired"));
  if (!existsSync(file)) throw new Refusal(t("plan.noPlanFile", { file }));
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new Refusal(t("plan.badPlanJson", { file, error: e.message }));
  }
}

function writePlan(file, plan) {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(plan, null, 2)}\n`);
  renameSync(tmp, file);
}

/** The backup taken right before an apply: the plan holds every before-state; this is the rest. */
function backup(target, planFile, stamp) {
  const at = new Date(stamp).toISOString();
  if (target.database === "remote") {
    const result = wranglerSync(["d1", "time-travel", "info", "DB", "--env", "production", "--json"], {
      stdio: "pipe",
    });
    let bookmark = null;
    try {
      bookmark = JSON.parse(result.stdout)?.bookmark ?? null;
    } catch {
      bookmark = null;
    }
    if (result.status !== 0 || typeof bookmark !== "string") {
      throw new Refusal(t("plan.noBookmark", { output: result.stderr || result.stdout }));
    }
    return { kind: "time-travel", bookmark, at };
  }
  const state = target.d1.persistTo ?? path.join(root, ".wrangler", "state");
  const d1 = path.join(state, "v3", "d1");
  if (!existsSync(d1)) throw new Refusal(t("plan.noLocal", { dir: d1 }));
  const copy = `${planFile}.backup-${stamp}`;
  cpSync(d1, copy, { recursive: true });
  return { kind: "local-copy", path: copy, at };
}

function verify(queries, d1) {
  return queries.flatMap((sql) => d1Query(sql, d1).map((r) => r.node_id));
}

/** The parsed options in the shape the steps below read: flags as a set, valued options by name. */
function asArgs(o) {
  const flags = new Set();
  for (const [key, name] of [
    ["local", "local"],
    ["remote", "remote"],
    ["confirm", "confirm"],
    ["applyAllSafe", "apply-all-safe"],
  ])
    if (o[key]) flags.add(name);
  const options = {};
  for (const [key, name] of [
    ["plan", "plan"],
    ["out", "out"],
    ["persistTo", "persist-to"],
  ])
    if (o[key] !== undefined) options[name] = o[key];
  return { flags, options };
}

function targetOptions(cmd) {
  return cmd
    .option("--local", t("plan.opt.local"))
    .option("--remote", t("plan.opt.remote"))
    .option("--persist-to <dir>", t("plan.opt.persistTo"));
}

/** The inspect / apply / rollback subcommands of one owner migration. */
export function planCommand(name, spec) {
  const full = { ...spec, name };
  const step = (fn) => async (o) => {
    try {
      const logic = await spec.load();
      const args = asArgs(o);
      process.exitCode = fn(full, logic, target(args), args);
    } catch (e) {
      if (e instanceof Refusal) throw new CliError(e.message, 2);
      throw e;
    }
  };
  const cmd = define(name)
    .description(t(`summary.${name}`))
    .addHelpText("after", `\n${spec.about}`);
  cmd.addCommand(
    targetOptions(define("inspect").description(t("plan.desc.inspect")))
      .option("--out <file>", t("plan.opt.out"))
      .action(step(inspect)),
  );
  cmd.addCommand(
    targetOptions(define("apply").description(t("plan.desc.apply")))
      .option("--plan <file>", t("plan.opt.plan"))
      .option("--confirm", t("plan.opt.confirm"))
      .option("--apply-all-safe", t("plan.opt.applyAllSafe"))
      .action(step(apply)),
  );
  cmd.addCommand(
    targetOptions(define("rollback").description(t("plan.desc.rollback")))
      .option("--plan <file>", t("plan.opt.plan"))
      .option("--confirm", t("plan.opt.confirmRollback"))
      .action(step(rollback)),
  );
  return cmd;
}

const db = (target) => t(`plan.database.${target.database}`);
const remoteFlag = (target) => (target.database === "remote" ? " --remote" : "");

function inspect(spec, logic, target, args) {
  const rows = d1Query(logic.inspectSql, target.d1);
  const createdAt = new Date().toISOString();
  const plan = logic.plan(rows, { createdAt, database: target.database });
  const file = fromCaller(args.options.out ?? `${spec.name}-plan-${createdAt.replace(/[:.]/g, "-")}.json`);
  writePlan(file, plan);
  console.log(t("plan.inspected", { name: spec.name, rows: rows.length, database: db(target), file }));
  console.log(
    `  ${Object.entries(plan.counts)
      .map(([k, v]) => `${k}: ${v}`)
      .join(", ")}`,
  );
  const hint = spec.reviewHint ? t("plan.hint", { hint: spec.reviewHint }) : "";
  console.log(t("plan.review", { name: spec.name, file, remote: remoteFlag(target), hint }));
  return 0;
}

function apply(spec, logic, target, args) {
  const file = args.options.plan && fromCaller(args.options.plan);
  const read = logic.read(readPlan(file), target.database);
  if (!read.ok) throw new Refusal(t("plan.refused", { file, error: read.error }));
  const plan = read.value;
  if (plan.applied) throw new Refusal(t("plan.alreadyApplied", { file, at: plan.applied.at }));
  const selected = logic.select(plan, { applyAllSafe: args.flags.has("apply-all-safe") });
  if (selected.length === 0) throw new Refusal(t("plan.nothingApproved", { file }));
  console.log(t("plan.wouldChange", { name: spec.name, n: selected.length, database: db(target) }));
  for (const e of selected.slice(0, 20)) console.log(`  ${spec.describe(e)}`);
  if (selected.length > 20) console.log(t("plan.more", { n: selected.length - 20 }));
  if (!args.flags.has("confirm")) {
    console.log(t("plan.dryRunApply"));
    return 2;
  }
  const stamp = Date.now();
  const taken = backup(target, file, stamp);
  console.log(
    taken.kind === "time-travel"
      ? t("plan.backupBookmark", { bookmark: taken.bookmark })
      : t("plan.backupCopy", { path: taken.path }),
  );
  d1ExecuteFile(logic.applySql(selected, stamp), target.d1);
  const nodeIds = verify(logic.appliedSql(selected, stamp), target.d1);
  const changed = new Set(nodeIds);
  const skipped = selected.map((e) => e.nodeId).filter((id) => !changed.has(id));
  writePlan(file, {
    ...plan,
    applied: { at: new Date(stamp).toISOString(), stamp, nodeIds, skipped, backup: taken },
  });
  console.log(t("plan.applied", { n: nodeIds.length, file }));
  if (skipped.length > 0)
    console.log(t("plan.skipped", { n: skipped.length, ids: skipped.slice(0, 10).join(", ") }));
  console.log(t("plan.undo", { name: spec.name, file, remote: remoteFlag(target) }));
  return 0;
}

function rollback(spec, logic, target, args) {
  const file = args.options.plan && fromCaller(args.options.plan);
  const read = logic.read(readPlan(file), target.database);
  if (!read.ok) throw new Refusal(t("plan.refused", { file, error: read.error }));
  const plan = read.value;
  const at = Date.now();
  const sql = logic.rollbackSql(plan, at);
  if (!sql.ok) throw new Refusal(t("plan.cannotRollback", { file, error: sql.error }));
  console.log(t("plan.wouldRestore", { name: spec.name, n: plan.applied.nodeIds.length, file }));
  if (!args.flags.has("confirm")) {
    console.log(t("plan.dryRunRollback"));
    return 2;
  }
  d1ExecuteFile(sql.value, target.d1);
  const restored = new Set(verify(logic.restoredSql(plan), target.d1));
  const conflicts = plan.applied.nodeIds.filter((id) => !restored.has(id));
  writePlan(file, {
    ...plan,
    applied: {
      ...plan.applied,
      rolledBack: { at: new Date(at).toISOString(), nodeIds: [...restored], conflicts },
    },
  });
  console.log(t("plan.restored", { n: restored.size }));
  if (conflicts.length > 0)
    console.log(t("plan.conflicts", { n: conflicts.length, ids: conflicts.slice(0, 10).join(", ") }));
  return 0;
}

export const loadTs = importTs;
