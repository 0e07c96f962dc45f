// The message log in the chat objects: seeds BENCH_CHATLOG_CHATS chats (default 1,000) with
// BENCH_CHATLOG_MESSAGES messages each (default 1,000) into the chats' own objects
// (ChatSession.appendLog) and the same rows into D1's log (the path before the move), then
// measures, each next to a plain baseline of the same run:
//   storage  — bytes per message in an object (its SQLite's databaseSize) and in D1;
//   ack      — the webhook ACK of chats whose objects hold the log, next to GET /healthz and to
//              the ACK of chats with an empty log, interleaved one of each at a time;
//   turn     — one ordinary turn's D1 statements, round trips and rows read, the history's share
//              of them and the object's own rows read, next to the same turn reading D1's log;
//   history  — a history search made from a chat's object: its own chat (in place), another
//              chat (one call to its object), 10 and 100 chats (the bounded fan-out), each next
//              to the same search over D1's log and to a request that reads nothing.
// The runtime's clock does not move during a read of an object's own SQLite, so history reads
// are timed here, around the whole request.
import { envInt, percentile, round } from "./stats.mjs";
import { body, postSigned, privateKey } from "./webhook-ack.mjs";

const CHATS = envInt("BENCH_CHATLOG_CHATS", 1000);
const MESSAGES = envInt("BENCH_CHATLOG_MESSAGES", 1000);
const ACKS = envInt("BENCH_CHATLOG_ACKS", 300);
const TURNS = envInt("BENCH_CHATLOG_TURNS", 30);
const QUERIES = envInt("BENCH_CHATLOG_QUERIES", 40);
/** The webhook's and the turns' chats: the first ones seeded, each kept warm like a busy group. */
const HOT = Math.min(50, CHATS);
const OBJECTS = ["猫", "火锅", "爬山", "摄影", "吉他", "咖啡", "寿司", "Vue", "Rust", "原神", "露营", "骑行"];
const chat = (c) => `qq:group:CLB${c}`;
const emptyChat = (c) => `qq:group:CLBEMPTY${c}`;

async function call(base, path, payload) {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

const stat = (all) => {
  const xs = all.filter(Number.isFinite);
  return { p50: round(percentile(xs, 50)), p95: round(percentile(xs, 95)), p99: round(percentile(xs, 99)) };
};
const ratio = (a, b) => (a === null || b === null || b === 0 ? null : round(a / b));
const range = (from, n) => Array.from({ length: n }, (_, i) => from + i);

async function sizes(base, chats) {
  const objects = [];
  let d1 = 0;
  for (let i = 0; i < chats.length; i += 1000) {
    const answer = await call(base, "/dev/bench/chatlog/sizes", { chats: chats.slice(i, i + 1000) });
    objects.push(...answer.objects);
    d1 = answer.d1;
  }
  return { objects, d1 };
}

/** Seeding is idempotent (the log's unique key): a request that failed is sent again, once. */
async function seedRequest(base, payload) {
  try {
    return await call(base, "/dev/bench/chatlog/seed", payload);
  } catch (e) {
    console.error(`seed ${JSON.stringify(payload)} failed (${e.message}); sending it again`);
    return call(base, "/dev/bench/chatlog/seed", payload);
  }
}

/** Seeds every chat, 5,000 messages per request; bytes per message in the objects and in D1. */
async function seed(base) {
  const empty = await sizes(base, range(0, 3).map(emptyChat));
  const before = empty.d1;
  const started = performance.now();
  const step = Math.min(MESSAGES, 5_000);
  const chatsPer = Math.max(1, Math.floor(5_000 / step));
  let added = 0;
  for (let offset = 0; offset < MESSAGES; offset += step)
    for (let c = 0; c < CHATS; c += chatsPer) {
      const n = Math.min(step, MESSAGES - offset);
      const answer = await seedRequest(base, {
        chat: c,
        chats: Math.min(chatsPer, CHATS - c),
        offset,
        n,
      });
      added += answer.added + answer.skipped;
    }
  const seconds = (performance.now() - started) / 1000;
  const after = await sizes(base, range(0, CHATS).map(chat));
  const emptyObject = Math.min(...empty.objects);
  const perMessage = after.objects.map((bytes) => (bytes - emptyObject) / MESSAGES);
  const objectBytes = round(perMessage.reduce((a, b) => a + b, 0) / perMessage.length, 0);
  const d1Bytes = round((after.d1 - before) / (CHATS * MESSAGES), 0);
  return {
    chats: CHATS,
    messages_per_chat: MESSAGES,
    messages_seeded: added,
    // Objects and D1 written together, so this is the rate of both writes.
    seed_messages_per_s: round(added / seconds, 0),
    empty_object_bytes: emptyObject,
    object_bytes: stat(after.objects),
    object_bytes_per_message: objectBytes,
    d1_bytes: after.d1,
    d1_bytes_per_message: d1Bytes,
    object_to_d1_bytes_per_message: ratio(objectBytes, d1Bytes),
  };
}

/** The ACK of the seeded chats, of empty-log chats and /healthz, one of each in turn. */
async function acks(base, vars) {
  const key = privateKey(vars.QQ_BOT_SECRET);
  const post = async (text) => (await postSigned(base, vars.QQ_BOT_APPID, key, text)).ms;
  const bare = async () => {
    const t0 = performance.now();
    await (await fetch(`${base}/healthz`)).arrayBuffer();
    return performance.now() - t0;
  };
  const group = (c) => chat(c).split(":")[2];
  const emptyGroup = (c) => emptyChat(c).split(":")[2];
  // Warm every chat's object, both kinds, and the isolate.
  for (let c = 0; c < HOT; c++) {
    await post(body(c, "warm", group(c)));
    await post(body(c, "warm", emptyGroup(c)));
    await bare();
  }
  const seeded = [];
  const empty = [];
  const healthz = [];
  for (let i = 0; i < ACKS; i++) {
    healthz.push(await bare());
    seeded.push(await post(body(i, "ack", group(i % HOT))));
    empty.push(await post(body(i, "ack", emptyGroup(i % HOT))));
  }
  const s = stat(seeded);
  const e = stat(empty);
  const h = stat(healthz);
  return {
    acks: ACKS,
    chats: HOT,
    log_ms: s,
    empty_log_ms: e,
    healthz_ms: h,
    p50_ratio_to_healthz: ratio(s.p50, h.p50),
    p99_ratio_to_healthz: ratio(s.p99, h.p99),
    p99_ratio_to_empty_log: ratio(s.p99, e.p99),
  };
}

const LOG_TABLES =
  /\b(messages|messages_fts|message_windows|message_windows_fts|message_senders|conversation_sessions)\b/;

/** One turn's bill, its history read from the objects and (baseline) from D1, in turn. */
async function turns(base) {
  const turn = (t, history) => ({
    chat: chat((t * 7) % HOT),
    sender: `M${t % 7}`,
    text: `上次说的${OBJECTS[t % OBJECTS.length]}怎么样了？还有${OBJECTS[(t * 5 + 3) % OBJECTS.length]}的事`,
    history,
  });
  for (let t = 0; t < 3; t++) {
    await call(base, "/dev/bench/turn/run", turn(TURNS + t, "object"));
    await call(base, "/dev/bench/turn/run", turn(TURNS + t, "d1"));
  }
  const bills = { object: [], d1: [] };
  const times = { object: [], d1: [] };
  for (let t = 0; t < TURNS; t++)
    for (const history of t % 2 === 0 ? ["object", "d1"] : ["d1", "object"]) {
      const t0 = performance.now();
      bills[history].push(await call(base, "/dev/bench/turn/run", turn(t, history)));
      times[history].push(performance.now() - t0);
    }
  const summary = (list, ms) => {
    const logShare = (b, pick) => b.d1.sql.reduce((n, sql, i) => n + (LOG_TABLES.test(sql) ? pick(i) : 0), 0);
    return {
      turns_ok: list.filter((b) => b.ok).length,
      d1_statements: stat(list.map((b) => b.d1.statements)),
      d1_round_trips: stat(list.map((b) => b.d1.roundTrips)),
      d1_rows_read: stat(list.map((b) => b.d1.rowsRead)),
      history_d1_statements: stat(list.map((b) => logShare(b, () => 1))),
      history_d1_rows_read: stat(list.map((b) => logShare(b, (i) => b.d1.rowsReadBySql[i] ?? 0))),
      object_rows_read: stat(list.map((b) => b.doRowsRead)),
      turn_ms: stat(ms),
      turn_in_object_ms: stat(list.map((b) => b.turnMs)),
      d1_wait_ms: stat(list.map((b) => b.d1.waitMs)),
    };
  };
  const object = summary(bills.object, times.object);
  const d1 = summary(bills.d1, times.d1);
  return {
    turns: TURNS,
    log_in_objects: object,
    log_in_d1: d1,
    d1_statements_ratio: ratio(object.d1_statements.p50, d1.d1_statements.p50),
    d1_rows_read_ratio: ratio(object.d1_rows_read.p50, d1.d1_rows_read.p50),
    turn_p95_ratio: ratio(object.turn_ms.p95, d1.turn_ms.p95),
    // The log statements a turn still sends to D1 with the log in the objects (should be none).
    history_statements_left_in_d1: [
      ...new Set(bills.object.flatMap((b) => b.d1.sql.filter((sql) => LOG_TABLES.test(sql)))),
    ].map((sql) => sql.slice(0, 160)),
  };
}

/** History reads made from a chat's object: each shape over the objects, over D1, and reading nothing. */
async function history(base) {
  const fan = (n, q) => range(0, Math.min(n, CHATS)).map((i) => chat((q * 13 + i) % CHATS));
  const shapes = {
    own_chat: (q) => ({ reader: chat(q % HOT), chats: [chat(q % HOT)] }),
    other_chat: (q) => ({ reader: chat(q % HOT), chats: [chat((q + 1) % CHATS)] }),
    fan_out_10: (q) => ({ reader: chat(q % HOT), chats: fan(10, q) }),
    fan_out_100: (q) => ({ reader: chat(q % HOT), chats: fan(100, q) }),
  };
  const text = (q) => `${OBJECTS[q % OBJECTS.length]} ${OBJECTS[(q * 5 + 1) % OBJECTS.length]}`;
  const samples = {};
  const read = async (shape, mode, q) => {
    const t0 = performance.now();
    const answer = await call(base, "/dev/bench/chatlog/read", {
      ...shapes[shape](q),
      mode,
      text: text(q),
      limit: 10,
    });
    const ms = performance.now() - t0;
    samples[`${shape}:${mode}`] ??= [];
    samples[`${shape}:${mode}`].push({ ms, ...answer });
  };
  for (const shape of Object.keys(shapes))
    for (const mode of ["object", "d1", "none"]) await read(shape, mode, QUERIES);
  for (const key of Object.keys(samples)) delete samples[key];
  for (let q = 0; q < QUERIES; q++)
    for (const shape of Object.keys(shapes))
      for (const mode of q % 2 === 0 ? ["object", "d1", "none"] : ["none", "d1", "object"])
        await read(shape, mode, q);
  const out = {};
  for (const shape of Object.keys(shapes)) {
    const of = (mode) => samples[`${shape}:${mode}`];
    const o = stat(of("object").map((s) => s.ms));
    const d = stat(of("d1").map((s) => s.ms));
    out[shape] = {
      chats: shapes[shape](0).chats.length,
      objects_ms: o,
      d1_ms: d,
      request_only_ms: stat(of("none").map((s) => s.ms)),
      p50_ratio_to_d1: ratio(o.p50, d.p50),
      p95_ratio_to_d1: ratio(o.p95, d.p95),
      hits_objects: stat(of("object").map((s) => s.hits)),
      hits_d1: stat(of("d1").map((s) => s.hits)),
      unread_objects: stat(of("object").map((s) => s.unread)),
      d1_statements_objects: stat(of("object").map((s) => s.d1.statements)),
      d1_statements_d1: stat(of("d1").map((s) => s.d1.statements)),
      d1_rows_read_d1: stat(of("d1").map((s) => s.d1.rowsRead)),
      object_rows_read_objects: stat(of("object").map((s) => s.doRowsRead)),
    };
  }
  return { queries: QUERIES, ...out };
}

export async function run({ base, vars }) {
  const storage = await seed(base);
  return {
    storage,
    ack: await acks(base, vars),
    turn: await turns(base),
    history: await history(base),
  };
}
