// Runs wrangler from the project's own node_modules with the project's Node.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "./dev-vars.mjs";

const wranglerBin = path.join(root, "node_modules", "wrangler", "bin", "wrangler.js");

export function wranglerSync(args, options = {}) {
  return spawnSync(process.execPath, [wranglerBin, ...args], {
    cwd: root,
    stdio: options.stdio ?? "inherit",
    encoding: "utf8",
    env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false", ...options.env },
  });
}

/** Applies local D1 migrations into the given persistence directory (default .wrangler/state). */
export function applyLocalMigrations(persistTo) {
  const args = ["d1", "migrations", "apply", "DB", "--local"];
  if (persistTo) args.push("--persist-to", persistTo);
  const result = wranglerSync(args, { stdio: "pipe" });
  if (result.status !== 0) {
    process.stderr.write(result.stdout ?? "");
    process.stderr.write(result.stderr ?? "");
    throw new Error("applying local D1 migrations failed");
  }
}

/**
 * The one request for local mode (dev defaults, recorded replies, /dev routes): the Worker is
 * production unless told otherwise, and every local run starts through here.
 */
export const LOCAL_MODE_VARS = { AKASHA_ENV: "local" };

/**
 * Starts `wrangler dev` in local mode on a port; resolves once it answers /healthz. The child
 * is killed when this process exits.
 *
 * `localTraces: false` turns off wrangler's local trace store (`X_LOCAL_OBSERVABILITY`, on by
 * default): it makes every request and binding call emit spans to a collector worker that
 * writes them to a SQLite object in the same workerd process. Production has nothing of the
 * kind on the request's thread, so the benchmarks leave it out.
 */
export async function startWranglerDev({
  port,
  vars = {},
  persistTo,
  quiet = false,
  extraArgs = [],
  localTraces = true,
  env = {},
}) {
  const args = [
    "dev",
    "--port",
    String(port),
    "--ip",
    "127.0.0.1",
    "--show-interactive-dev-session=false",
    ...extraArgs,
  ];
  if (persistTo) args.push("--persist-to", persistTo);
  for (const [key, value] of Object.entries({ ...vars, ...LOCAL_MODE_VARS }))
    args.push("--var", `${key}:${value}`);
  const child = spawn(process.execPath, [wranglerBin, ...args], {
    cwd: root,
    stdio: quiet ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      ...(localTraces ? {} : { X_LOCAL_OBSERVABILITY: "false" }),
      ...env,
    },
    detached: false,
  });
  let output = "";
  if (quiet) {
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
  }
  const stop = () => {
    if (!child.killed) child.kill("SIGTERM");
  };
  process.on("exit", stop);
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode})\n${output}`);
    try {
      // Bounded: while a build fails, wrangler accepts the connection and never answers.
      const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return { child, stop, output: () => output };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  stop();
  throw new Error(`wrangler dev did not answer on port ${port} within 90 s\n${output}`);
}

/**
 * Bundles the Worker once into `dir` and writes a config beside it that runs that bundle as it
 * is (`wrangler dev --no-bundle`), for long runs (evaluations) that must not restart halfway.
 * `wrangler dev` rebuilds and restarts the Worker whenever a file of its bundle or its config
 * changes, dropping the request in flight ("Your worker restarted mid-request"); an evaluation
 * that embeds for half an hour outlives many edits, checkouts and `npm install`s of the tree it
 * runs from. The frozen copy reads nothing of the tree after it is built, and config watching is
 * off (`frozenWranglerEnv`). `config` is the wrangler config to freeze (default wrangler.toml).
 * Returns the extra arguments for startWranglerDev.
 */
export function freezeWorker(dir, config = path.join(root, "wrangler.toml")) {
  const bundle = path.join(dir, "bundle");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const built = wranglerSync(["deploy", "--dry-run", "--outdir", bundle, "--config", config], {
    stdio: "pipe",
  });
  if (built.status !== 0) {
    process.stderr.write(built.stdout ?? "");
    process.stderr.write(built.stderr ?? "");
    throw new Error("bundling the Worker for a frozen run failed");
  }
  const from = path.dirname(config);
  const text = readFileSync(config, "utf8")
    .replace(/^main = "(.+)"$/m, () => `main = ${JSON.stringify(path.join(bundle, "index.js"))}`)
    .replace(
      /^migrations_dir = "(.+)"$/gm,
      (_, p) => `migrations_dir = ${JSON.stringify(path.resolve(from, p))}`,
    );
  const frozen = path.join(dir, "wrangler.toml");
  writeFileSync(frozen, text);
  return ["--config", frozen, "--no-bundle"];
}

/** Environment for a frozen run: wrangler does not watch the (copied) config either. */
export const frozenWranglerEnv = { WRANGLER_CI_DISABLE_CONFIG_WATCHING: "true" };
