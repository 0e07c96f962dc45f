// (d) The per-turn bill: seeds a realistic store — BENCH_TURN_MESSAGES logged messages
// (default 1,000,000), BENCH_TURN_MEMORY memory items (default 100,000) over BENCH_TURN_CHATS
// chats (default 1,000) and a BENCH_TURN_PASSAGES-passage collection (default 10,000) — then
// runs BENCH_TURNS ordinary turns with the offline model through the chat objects over a
// counting D1 (local mode only), next to the bare FTS queries the turn's recall makes (same
// indexes and limits, without the joins), in the same run. Reports the D1 bytes each kind of row adds (from D1's size meta), and per
// turn: D1 statements, round trips, rows read and written, the object's SQLite rows, the
// tokens packed into the prompt, and the time inside the Worker.
import { envInt, percentile, round } from "./stats.mjs";

const int = (name, fallback) => envInt(name, fallback, 0);
const MESSAGES = int("BENCH_TURN_MESSAGES", 1_000_000);
const MEMORY = int("BENCH_TURN_MEMORY", 100_000);
const CHATS = int("BENCH_TURN_CHATS", 1_000);
const PASSAGES = int("BENCH_TURN_PASSAGES", 10_000);
const TURNS = int("BENCH_TURNS", 50);
const OBJECTS = ["猫", "火锅", "爬山", "摄影", "吉他", "咖啡", "寿司", "Vue", "Rust", "原神", "露营", "骑行"];
const benchChat = (c) => (c % 2 === 0 ? `bench:private:u${c}` : `bench:group:g${c}`);

async function call(base, path, body) {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

const size = async (base) => (await call(base, "/dev/bench/turn/size")).bytes;

async function seed(base, label, total, step, send) {
  const before = await size(base);
  const started = performance.now();
  let rows = 0;
  for (let offset = 0; offset < total; offset += step) {
    const n = Math.min(step, total - offset);
    // The kb import reports the passages its chunker made; the other seeds write n rows.
    const answer = await send(offset, n);
    rows += typeof answer?.passages === "number" ? answer.passages : n;
  }
  const after = await size(base);
  const seconds = (performance.now() - started) / 1000;
  return {
    [label]: rows,
    [`${label}_per_s`]: round(rows / Math.max(seconds, 0.001), 0),
    [`bytes_per_${label}`]: rows > 0 ? round((after - before) / rows, 0) : null,
  };
}

function byStatement(bills) {
  const rows = new Map();
  for (const b of bills)
    b.d1.sql.forEach((sql, i) => {
      rows.set(sql, [...(rows.get(sql) ?? []), b.d1.rowsReadBySql[i] ?? 0]);
    });
  // Keyed by the SQL's opening; statements that open alike (several select the same node
  // columns) are told apart by a number.
  const seen = new Map();
  return Object.fromEntries(
    [...rows].map(([sql, samples]) => {
      const opening = sql.slice(0, 120);
      const n = (seen.get(opening) ?? 0) + 1;
      seen.set(opening, n);
      return [n === 1 ? opening : `${opening} (${n})`, { n: samples.length, ...stat(samples) }];
    }),
  );
}

// Numbers only: a field an older Worker does not report comes out null rather than failing.
const stat = (all) => {
  const samples = all.filter(Number.isFinite);
  return { p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)) };
};

/** Seeds the store (messages, memory items, a collection) and reports its sizes. */
export async function seedStore(base) {
  return {
    ...(await seed(base, "message", MESSAGES, 20_000, (offset, n) =>
      call(base, "/dev/bench/turn/seed-messages", { offset, n, chats: CHATS }),
    )),
    ...(await seed(base, "memory_item", MEMORY, 10_000, (offset, n) =>
      call(base, "/dev/bench/memory/seed", { offset, n, chats: CHATS }),
    )),
    // 10 passages per document; the collection is searched only when knowledge recall is on.
    ...(await seed(base, "passage", PASSAGES, 1_000, (offset, n) =>
      call(base, "/dev/bench/kb-seed", {
        collection: "bench-turn",
        offset: offset / 10,
        documents: Math.max(1, Math.ceil(n / 10)),
        passagesPerDocument: 10,
      }),
    )),
    database_bytes: await size(base),
  };
}

/** Runs the turns and the bare queries over a seeded store; the bill per turn. */
export async function measureTurns(base) {
  const turn = (t) => ({
    chat: benchChat((t * 37) % CHATS),
    sender: `M${t % 7}`,
    text: `上次说的${OBJECTS[t % OBJECTS.length]}怎么样了？还有${OBJECTS[(t * 5 + 3) % OBJECTS.length]}的事`,
  });
  // Warm the isolate, the settings cache and the chat objects' first use.
  for (let t = 0; t < 3; t++) await call(base, "/dev/bench/turn/run", turn(TURNS + t));
  const bills = [];
  const bare = [];
  for (let t = 0; t < TURNS; t++) {
    bills.push(await call(base, "/dev/bench/turn/run", turn(t)));
    bare.push(await call(base, "/dev/bench/turn/bare", turn(t)));
  }
  const ratio = bills.map((b, i) => b.d1.rowsRead / Math.max(1, bare[i].rowsRead));
  return {
    turns: TURNS,
    turns_ok: bills.filter((b) => b.ok).length,
    d1_statements: stat(bills.map((b) => b.d1.statements)),
    d1_round_trips: stat(bills.map((b) => b.d1.roundTrips)),
    d1_rows_read: stat(bills.map((b) => b.d1.rowsRead)),
    d1_rows_written: stat(bills.map((b) => b.d1.rowsWritten)),
    d1_raw_rows_returned: stat(bills.map((b) => b.d1.rawRowsReturned)),
    do_rows_read: stat(bills.map((b) => b.doRowsRead)),
    do_rows_written: stat(bills.map((b) => b.doRowsWritten)),
    prompt_tokens_max: stat(bills.map((b) => Math.max(0, ...b.promptTokens))),
    model_calls: stat(bills.map((b) => b.promptTokens.length)),
    context_token_budget: bills[0]?.contextTokenBudget ?? null,
    turn_ms: stat(bills.map((b) => b.ms)),
    // Where the turn's time goes: inside the chat object, and of that the wait for D1.
    turn_in_object_ms: stat(bills.map((b) => b.turnMs)),
    d1_wait_ms: stat(bills.map((b) => b.d1.waitMs)),
    d1_wait_share: stat(bills.map((b) => b.d1.waitMs / Math.max(1e-9, b.turnMs))),
    bare_round_trips: stat(bare.map((b) => b.roundTrips)),
    bare_rows_read: stat(bare.map((b) => b.rowsRead)),
    // Each bare query's rows read (p50 / p95), by name: history, memory:<scope type>.
    bare_rows_read_by_query: Object.fromEntries(
      [...new Set(bare.flatMap((b) => Object.keys(b).filter((k) => typeof b[k]?.rowsRead === "number")))].map(
        (name) => [name, stat(bare.map((b) => b[name]?.rowsRead ?? 0))],
      ),
    ),
    bare_ms: stat(bare.map((b) => b.ms)),
    rows_read_ratio_to_bare: stat(ratio),
    // What each statement reads, by its SQL's opening, over all turns (p50 / p95 rows read).
    rows_read_by_statement: byStatement(bills),
    // One turn's statements, to see what the round trips are: [round trip, rows read, SQL].
    sample_statements: (bills[0]?.d1.sql ?? []).map((sql, i) => [
      bills[0].d1.roundTripOf[i],
      bills[0].d1.rowsReadBySql[i],
      sql,
    ]),
  };
}

export async function run({ base }) {
  const seeded = await seedStore(base);
  return { ...seeded, ...(await measureTurns(base)) };
}
