// `npm run bench [-- name …]`: starts the Worker locally (wrangler dev, fresh local state in
// .bench/), runs the named benchmarks against it on loopback and prints one JSON line each.
// Every benchmark reports its numbers next to a baseline measured in the same run.
import { rmSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";
import { applyLocalMigrations, startWranglerDev } from "../lib/wrangler.mjs";

/** name → module exporting `run({ base, vars })`, returning a result object. */
const BENCHES = {
  webhook: () => import("./webhook-ack.mjs"),
  ingest: () => import("./message-ingest.mjs"),
  // Not in DEFAULT: seeds 100,000 memory items first (about a minute).
  memory: () => import("./memory-preview.mjs"),
  kb: () => import("./kb-search.mjs"),
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

const persistTo = process.env.BENCH_STATE_DIR ?? path.join(root, ".bench", "state");
rmSync(persistTo, { recursive: true, force: true });
applyLocalMigrations(persistTo);
const port = Number(process.env.BENCH_PORT ?? 8797);
const vars = {
  QQ_BOT_APPID: "102000000",
  QQ_BOT_SECRET: "benchSecret0123456789abcdefghijkl",
  ADMIN_TOKEN: "bench-admin",
  ...(process.env.BENCH_CONFIG ? { AKASHA_CONFIG: process.env.BENCH_CONFIG } : {}),
};
const server = await startWranglerDev({ port, vars, persistTo, quiet: true });
try {
  for (const name of selected) {
    const bench = await BENCHES[name]();
    const result = await bench.run({ base: `http://127.0.0.1:${port}`, vars });
    console.log(JSON.stringify({ bench: name, ...result }));
  }
} finally {
  server.stop();
}
