// `npm run bench [-- name …]`: starts the Worker locally (wrangler dev, fresh local state on
// tmpfs), runs the named benchmarks against it on loopback, and does that BENCH_RUNS times
// (default 3), each run from fresh state. It prints one JSON line per benchmark and run, then
// one line per benchmark with the median and the range of every number over the runs, and the
// machine's load next to them. Every benchmark reports its numbers next to a baseline measured
// in the same run.
import { existsSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyLocalMigrations, startWranglerDev } from "../lib/wrangler.mjs";
import { startLocalEmbeddings, withLocalModel } from "../model/local-service.mjs";
import { aggregate } from "./aggregate.mjs";
import { machineLoad } from "./machine-load.mjs";

/** name → module exporting `run({ base, vars })`, returning a result object. */
const BENCHES = {
  webhook: () => import("./webhook-ack.mjs"),
  ingest: () => import("./message-ingest.mjs"),
  // Not in DEFAULT: seeds 100,000 memory items first (about a minute).
  memory: () => import("./memory-preview.mjs"),
  kb: () => import("./kb-search.mjs"),
  dream: () => import("./dream-cost.mjs"),
  // Not in DEFAULT: seeds 1M messages, 100k memory items and 10k passages first (sizes in
  // BENCH_TURN_MESSAGES, BENCH_TURN_MEMORY, BENCH_TURN_CHATS, BENCH_TURN_PASSAGES).
  turn: () => import("./turn-bill.mjs"),
  // Not in DEFAULT: seeds 80,000 memory items over 200 persons first (BENCH_PROFILE_PERSONS,
  // BENCH_PROFILE_ITEMS).
  profile: () => import("./profile-read.mjs"),
  // Not in DEFAULT: the webhook bench under a CPU profile (needs BENCH_INSPECTOR_PORT).
  "ack-profile": () => import("./ack-profile.mjs"),
  // Not in DEFAULT: the local model of meaning (needs `npm run model:fetch`); the runner starts
  // the embedding service on BENCH_EMBEDDINGS_PORT (default: any free port).
  embeddings: () => import("./embeddings.mjs"),
  // Not in DEFAULT: seeds 1,000 chats × 1,000 messages into the chats' objects and D1 first
  // (BENCH_CHATLOG_CHATS, BENCH_CHATLOG_MESSAGES).
  chatlog: () => import("./chatlog.mjs"),
};
// `memory` (100,000 memory items) and `kb` (111,000 passages) seed large data sets first and
// take minutes: run them by name (`npm run bench -- memory`).
const DEFAULT = ["webhook", "ingest"];

const names = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const selected = names.length > 0 ? names : DEFAULT;
for (const name of selected) {
  if (!BENCHES[name]) {
    console.error(`unknown benchmark '${name}'; choose from: ${Object.keys(BENCHES).join(", ")}`);
    process.exit(2);
  }
}

const runs = Number(process.env.BENCH_RUNS ?? 3);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`BENCH_RUNS must be a positive integer, got '${process.env.BENCH_RUNS}'`);
  process.exit(2);
}

// workerd waits on fsync for every D1 and Durable Object write, so on a disk the machine's
// storage, not the code, dominates the tail: state lives in memory unless told otherwise.
const tmpfs = "/dev/shm";
const persistTo =
  process.env.BENCH_STATE_DIR ??
  (existsSync(tmpfs) ? path.join(tmpfs, "akasha-bench") : path.join(os.tmpdir(), "akasha-bench"));
const onTmpfs = persistTo.startsWith(`${tmpfs}/`);
const port = Number(process.env.BENCH_PORT ?? 8797);
const vars = {
  QQ_BOT_APPID: "102000000",
  QQ_BOT_SECRET: "benchSecret0123456789abcdefghijkl",
  ADMIN_TOKEN: "bench-admin",
  ...(process.env.BENCH_CONFIG ? { AKASHA_CONFIG: process.env.BENCH_CONFIG } : {}),
};
// The service outlives the runs (its model loads once); the Worker knows it as `bge-small-zh`
// but reads and writes what BENCH_CONFIG says, so the other benchmarks are unchanged.
let embeddings = null;
if (selected.includes("embeddings")) {
  embeddings = await startLocalEmbeddings({ port: Number(process.env.BENCH_EMBEDDINGS_PORT ?? 0) });
  if (!embeddings.url) {
    console.error(`the embeddings bench needs the model: ${embeddings.unavailable}`);
    process.exit(2);
  }
  vars.AKASHA_CONFIG = withLocalModel(vars.AKASHA_CONFIG, embeddings.url, { select: false });
}
// wrangler's local trace store works on the same thread as the Worker for every request and
// binding call, which production does not: off unless BENCH_LOCAL_TRACES=1
// (docs/decisions/0021-benches-run-without-the-local-trace-store.md).
const localTraces = process.env.BENCH_LOCAL_TRACES === "1";
console.log(
  JSON.stringify({
    state_dir: persistTo,
    state_on_tmpfs: onTmpfs,
    local_traces: localTraces,
    runs,
    ...machineLoad(),
  }),
);

const results = Object.fromEntries(selected.map((name) => [name, []]));
for (let run = 1; run <= runs; run++) {
  rmSync(persistTo, { recursive: true, force: true });
  applyLocalMigrations(persistTo);
  // A CPU profile (ack-profile) reads the isolate over wrangler's inspector.
  const inspector = process.env.BENCH_INSPECTOR_PORT;
  const extraArgs = inspector ? ["--inspector-port", inspector] : [];
  const server = await startWranglerDev({ port, vars, persistTo, quiet: true, extraArgs, localTraces });
  try {
    for (const name of selected) {
      const bench = await BENCHES[name]();
      const result = await bench.run({ base: `http://127.0.0.1:${port}`, vars, embeddings: embeddings?.url });
      results[name].push(result);
      console.log(JSON.stringify({ bench: name, run, ...result, machine: machineLoad() }));
    }
  } finally {
    // The next run must not find this one's workerd still answering on the port.
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    server.stop();
    if (server.child.exitCode === null) await exited;
  }
}
rmSync(persistTo, { recursive: true, force: true });
embeddings?.stop();
for (const name of selected) {
  console.log(JSON.stringify({ bench: name, median_of_runs: runs, ...aggregate(results[name]) }));
}
