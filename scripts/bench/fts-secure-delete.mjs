// What FTS5's secure-delete costs the message log's deletes and rewrites
// (docs/experiments/0700-fts-secure-delete.md): the log's messages table and its external-content
// FTS index with the log's own triggers (migration 0001), in node's SQLite on tmpfs, seeded with BENCH_FTS_ROWS
// messages (default 50,000) of BENCH_FTS_TOKENS tokens each from a 5,000-word vocabulary. Measured
// with the option off (the baseline) and on, each in the same run from the same seed: deleting
// 5,000 of the oldest rows in the retention's chunks of 1,000, and rewriting the tokens of 20
// single rows (what a naming afterwards does); between the two, the index rewritten into one
// segment ('optimize', what a chat object does after a person's forget). Prints the median of BENCH_RUNS runs (default 3)
// and the ratio on / off. `node scripts/bench/fts-secure-delete.mjs`.
import { readFileSync, rmSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { envInt } from "./stats.mjs";

const ROWS = envInt("BENCH_FTS_ROWS", 50_000);
const TOKENS = envInt("BENCH_FTS_TOKENS", 24);
const RUNS = envInt("BENCH_RUNS", 3);

// The log's messages table, its FTS index and triggers exactly as D1's first migration makes them.
const SCHEMA = readFileSync(new URL("../../migrations/0001_chats_and_messages.sql", import.meta.url), "utf8");

/** A deterministic stream of words, so both sides of a run index the same text. */
function words(seed) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return `kab${(x % 5000).toString(36)}`;
  };
}

function seeded(file, secure) {
  rmSync(file, { force: true });
  const db = new DatabaseSync(file);
  db.exec(SCHEMA);
  if (secure) db.exec("INSERT INTO messages_fts (messages_fts, rank) VALUES ('secure-delete', 1)");
  const next = words(7);
  const insert = db.prepare(
    "INSERT INTO messages (transport, chat_key, message_id, ts, text, tokens, direction) VALUES ('qq', 'qq:group:B', ?, ?, ?, ?, 'in')",
  );
  db.exec("BEGIN");
  for (let i = 0; i < ROWS; i++) {
    const tokens = Array.from({ length: TOKENS }, next).join(" ");
    insert.run(`m${i}`, i, tokens, tokens);
    // A flush every 20 rows: small segments, as the log's writes make them.
    if (i % 20 === 19) db.exec("COMMIT; BEGIN");
  }
  db.exec("COMMIT");
  return db;
}

function timed(f) {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}

function measure(secure) {
  const file = `/dev/shm/akasha-fts-${process.pid}-${secure ? "on" : "off"}.sqlite`;
  const db = seeded(file, secure);
  const retention = timed(() => {
    for (let chunk = 0; chunk < 5; chunk++)
      db.exec(`DELETE FROM messages WHERE seq IN (SELECT seq FROM messages ORDER BY ts LIMIT 1000)`);
  });
  // What a chat object's forget of one person then does to its indexes (fts-erase.ts).
  const compact = timed(() => db.exec("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')"));
  const update = db.prepare("UPDATE messages SET text = ?, tokens = ? WHERE seq = ?");
  const rewrite = timed(() => {
    for (let i = 0; i < 20; i++) update.run("[masked]", "kabmasked", ROWS - 1 - i * 997);
  });
  db.close();
  rmSync(file, { force: true });
  return { retention, compact, rewrite };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runs = [];
for (let r = 0; r < RUNS; r++) {
  const off = measure(false);
  const on = measure(true);
  runs.push({ off, on });
  console.log(JSON.stringify({ run: r + 1, off, on }));
}
for (const key of ["retention", "compact", "rewrite"]) {
  const off = median(runs.map((x) => x.off[key]));
  const on = median(runs.map((x) => x.on[key]));
  console.log(
    `${key.padEnd(10)} off (baseline) ${off.toFixed(1)} ms   secure-delete ${on.toFixed(1)} ms   ratio ${(on / off).toFixed(2)}`,
  );
}
