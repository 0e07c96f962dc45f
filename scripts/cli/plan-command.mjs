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

/** Thrown for refusals: printed as a clear message with exit code 2, never as a stack. */
export class Refusal extends Error {}

function target(args) {
  if (args.flags.has("local") && args.flags.has("remote"))
    throw new Refusal("choose one of --local and --remote");
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
  if (!file) throw new Refusal("--plan <file> is required");
  if (!existsSync(file)) throw new Refusal(`plan file ${file} does not exist`);
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new Refusal(`plan file ${file} is not valid JSON (${e.message})`);
  }
}

function writePlan(file, plan) {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(plan, null, 2)}\n`);
  renameSync(tmp, file);
}

/** The backup taken right before an apply: the plan holds every before-state; this is the rest. */
function backup(t, planFile, stamp) {
  const at = new Date(stamp).toISOString();
  if (t.database === "remote") {
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
      throw new Refusal(
        `could not read a D1 Time Travel bookmark, so nothing was changed:\n${result.stderr || result.stdout}`,
      );
    }
    return { kind: "time-travel", bookmark, at };
  }
  const state = t.d1.persistTo ?? path.join(root, ".wrangler", "state");
  const d1 = path.join(state, "v3", "d1");
  if (!existsSync(d1)) throw new Refusal(`no local D1 database under ${d1}; nothing to back up or change`);
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
    .option("--local", "the local D1 database (default)")
    .option("--remote", "the production database (wrangler)")
    .option("--persist-to <dir>", "local state directory (default .wrangler/state)");
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
  const cmd = define(name).description(spec.summary).addHelpText("after", `\n${spec.about}`);
  cmd.addCommand(
    targetOptions(define("inspect").description("write a plan (read-only)"))
      .option("--out <file>", "plan file (default <name>-plan-<time>.json)")
      .action(step(inspect)),
  );
  cmd.addCommand(
    targetOptions(
      define("apply").description(
        "without --confirm: dry run; with it: back up, then apply the approved rows",
      ),
    )
      .option("--plan <file>", "the plan file")
      .option("--confirm", "really apply (after a backup)")
      .option("--apply-all-safe", "apply every safe row, approved or not")
      .action(step(apply)),
  );
  cmd.addCommand(
    targetOptions(define("rollback").description("restore the rows the plan applied"))
      .option("--plan <file>", "the plan file")
      .option("--confirm", "really restore")
      .action(step(rollback)),
  );
  return cmd;
}

function inspect(spec, logic, t, args) {
  const rows = d1Query(logic.inspectSql, t.d1);
  const createdAt = new Date().toISOString();
  const plan = logic.plan(rows, { createdAt, database: t.database });
  const file = fromCaller(args.options.out ?? `${spec.name}-plan-${createdAt.replace(/[:.]/g, "-")}.json`);
  writePlan(file, plan);
  console.log(`${spec.name}: read ${rows.length} rows from the ${t.database} database; wrote ${file}`);
  console.log(
    `  ${Object.entries(plan.counts)
      .map(([k, v]) => `${k}: ${v}`)
      .join(", ")}`,
  );
  console.log(
    `Review it, set "approval": "approved" on the rows to apply${spec.reviewHint ? ` (${spec.reviewHint})` : ""}, then:\n` +
      `  npm run akasha -- ${spec.name} apply --plan ${file}${t.database === "remote" ? " --remote" : ""}            (dry run)\n` +
      `  npm run akasha -- ${spec.name} apply --plan ${file}${t.database === "remote" ? " --remote" : ""} --confirm`,
  );
  return 0;
}

function apply(spec, logic, t, args) {
  const file = args.options.plan && fromCaller(args.options.plan);
  const read = logic.read(readPlan(file), t.database);
  if (!read.ok) throw new Refusal(`refusing plan ${file}: ${read.error}`);
  const plan = read.value;
  if (plan.applied) {
    throw new Refusal(
      `plan ${file} was already applied at ${plan.applied.at}; roll it back or inspect again`,
    );
  }
  const selected = logic.select(plan, { applyAllSafe: args.flags.has("apply-all-safe") });
  if (selected.length === 0) {
    throw new Refusal(
      `nothing to apply in ${file}: no entry is approved. Set "approval": "approved" on the rows to change, or pass --apply-all-safe`,
    );
  }
  console.log(`${spec.name}: ${selected.length} row(s) would change in the ${t.database} database:`);
  for (const e of selected.slice(0, 20)) console.log(`  ${spec.describe(e)}`);
  if (selected.length > 20) console.log(`  … and ${selected.length - 20} more`);
  if (!args.flags.has("confirm")) {
    console.log(`Dry run: nothing changed. Re-run with --confirm to back up and apply.`);
    return 2;
  }
  const stamp = Date.now();
  const taken = backup(t, file, stamp);
  console.log(
    `  backup: ${taken.kind === "time-travel" ? `Time Travel bookmark ${taken.bookmark}` : taken.path}`,
  );
  d1ExecuteFile(logic.applySql(selected, stamp), t.d1);
  const nodeIds = verify(logic.appliedSql(selected, stamp), t.d1);
  const changed = new Set(nodeIds);
  const skipped = selected.map((e) => e.nodeId).filter((id) => !changed.has(id));
  writePlan(file, {
    ...plan,
    applied: { at: new Date(stamp).toISOString(), stamp, nodeIds, skipped, backup: taken },
  });
  console.log(`  applied ${nodeIds.length} row(s); recorded in ${file}`);
  if (skipped.length > 0) {
    console.log(
      `  skipped ${skipped.length} row(s) that changed since the plan was made: ${skipped.slice(0, 10).join(", ")}`,
    );
  }
  console.log(
    `Undo with: npm run akasha -- ${spec.name} rollback --plan ${file}${t.database === "remote" ? " --remote" : ""} --confirm`,
  );
  return 0;
}

function rollback(spec, logic, t, args) {
  const file = args.options.plan && fromCaller(args.options.plan);
  const read = logic.read(readPlan(file), t.database);
  if (!read.ok) throw new Refusal(`refusing plan ${file}: ${read.error}`);
  const plan = read.value;
  const at = Date.now();
  const sql = logic.rollbackSql(plan, at);
  if (!sql.ok) throw new Refusal(`cannot roll back ${file}: ${sql.error}`);
  console.log(`${spec.name}: ${plan.applied.nodeIds.length} row(s) would be restored from ${file}.`);
  if (!args.flags.has("confirm")) {
    console.log("Dry run: nothing changed. Re-run with --confirm to restore.");
    return 2;
  }
  d1ExecuteFile(sql.value, t.d1);
  const restored = new Set(verify(logic.restoredSql(plan), t.d1));
  const conflicts = plan.applied.nodeIds.filter((id) => !restored.has(id));
  writePlan(file, {
    ...plan,
    applied: {
      ...plan.applied,
      rolledBack: { at: new Date(at).toISOString(), nodeIds: [...restored], conflicts },
    },
  });
  console.log(`  restored ${restored.size} row(s)`);
  if (conflicts.length > 0) {
    console.log(
      `  ${conflicts.length} row(s) changed after the apply and were left alone: ${conflicts.slice(0, 10).join(", ")}`,
    );
  }
  return 0;
}

export const loadTs = importTs;
