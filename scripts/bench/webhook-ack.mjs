// (a) Webhook ACK latency: signed GROUP_AT_MESSAGE_CREATE events spread over 50 chats, posted
// to /webhook/qq, next to GET /healthz (a bare 200 route of the same Worker) measured the same
// way in the same run. Two load shapes:
//   paced       — messages arrive at a fixed rate (BENCH_RATE per second, open loop), as a
//                 busy bot receives them; latency is the ACK path plus any queueing behind
//                 the turns still running in the background;
//   back-to-back — the next message is sent as soon as the previous one is acknowledged
//                 (BENCH_CONCURRENCY in flight): a saturation test;
//   concurrent   — BENCH_CONCURRENT_INFLIGHT requests (default 10) in flight over
//                 BENCH_CONCURRENT_CHATS chats (default 20, 50 messages each), then a check
//                 that every message was logged once and answered once; /healthz is
//                 measured idle just before and, one request at a time, under the same load.
// Everything runs in one local workerd process (Worker, chat objects and the D1 simulation
// share its event loop), unlike production, where they run apart.
import { createPrivateKey, sign } from "node:crypto";
import { percentile, round, timed } from "./stats.mjs";

const MESSAGES = Number(process.env.BENCH_WEBHOOK_MESSAGES ?? 2000);
const CHATS = 50;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 1);
const RATE = Number(process.env.BENCH_RATE ?? 10);
const CONCURRENT_INFLIGHT = Number(process.env.BENCH_CONCURRENT_INFLIGHT ?? 10);
const CONCURRENT_CHATS = Number(process.env.BENCH_CONCURRENT_CHATS ?? 20);
const CONCURRENT_PER_CHAT = Number(process.env.BENCH_CONCURRENT_PER_CHAT ?? 50);

export function privateKey(secret) {
  let seed = Buffer.from(secret, "utf8");
  while (seed.length < 32) seed = Buffer.concat([seed, seed]);
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed.subarray(0, 32)]);
  return createPrivateKey({ key: der, format: "der", type: "pkcs8" });
}

/**
 * Posts `text` to /webhook/qq signed as the platform signs it; resolves once the answer's body
 * is read, with the answer, the wall-clock time it was sent and its milliseconds (the request
 * alone: signing comes before the clock starts, as /healthz has nothing to sign). Throws on
 * anything but 200: a bench never times a refusal.
 */
export async function postSigned(base, appId, key, text) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = sign(null, Buffer.from(timestamp + text), key).toString("hex");
  const sentAt = Date.now();
  const t0 = performance.now();
  const res = await fetch(`${base}/webhook/qq`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-bot-appid": appId,
      "x-signature-timestamp": timestamp,
      "x-signature-ed25519": signature,
    },
    body: text,
  });
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  return { res, sentAt, ms: performance.now() - t0 };
}

export function body(i, round, group = `BENCHGROUP${i % CHATS}`) {
  return JSON.stringify({
    op: 0,
    id: `GROUP_AT_MESSAGE_CREATE:bench${round}-${i}`,
    t: "GROUP_AT_MESSAGE_CREATE",
    d: {
      id: `ROBOT1.0_bench${round}-${i}`,
      content: ` 第${i}条消息：明天下午三点开会，记得带上周报`,
      timestamp: new Date().toISOString(),
      author: { id: `M${i % 7}`, member_openid: `M${i % 7}` },
      group_id: group,
      group_openid: group,
    },
  });
}

/** Sends `n` requests `gap` ms apart without waiting for answers; returns per-request ms. */
async function paced(n, gapMs, task) {
  const latencies = [];
  const started = performance.now();
  const pending = [];
  for (let i = 0; i < n; i++) {
    const due = started + i * gapMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    pending.push(task(i).then(() => latencies.push(performance.now() - t0)));
  }
  await Promise.all(pending);
  return { latencies, wallMs: performance.now() - started };
}

/** The `enqueue` spans of the Server-Timing header (local mode), per round. */
const enqueueSpans = {};
/** Per round, each ACK's trace: the bench's send and receive times around the Worker's stamps. */
const traces = {};
function recordSpan(shape, header, sentAt, receivedAt) {
  const dur = /enqueue;dur=([0-9.]+)/.exec(header ?? "")?.[1];
  if (dur === undefined) return;
  enqueueSpans[shape] ??= [];
  enqueueSpans[shape].push(Number(dur));
  const t = /ack;desc="entry=(\d+) enq0=(\d+) enq1=(\d+)"/.exec(header ?? "");
  if (!t) return;
  const [entry, enq0, enq1] = t.slice(1).map(Number);
  traces[shape] ??= [];
  traces[shape].push({
    total: receivedAt - sentAt,
    // loopback, workerd's entry worker and the wait for the isolate's thread
    to_worker: entry - sentAt,
    // body read, app id, signature, replay window, JSON parse, event (with their awaits)
    checks: enq0 - entry,
    // the RPC to the chat object, the wait for it to run the call, and its return
    enqueue: enq1 - enq0,
    // the response back to the bench
    to_client: receivedAt - enq1,
  });
}

/**
 * Where the ACKs' time went, in ms (epoch clocks of one machine, 1 ms resolution): each
 * segment's p50 and p99, and the mean of each over the slowest 1% of ACKs.
 */
function traceBreakdown(shape) {
  const rows = traces[shape] ?? [];
  if (rows.length === 0) return undefined;
  const keys = Object.keys(rows[0]);
  const slow = [...rows]
    .sort((a, b) => b.total - a.total)
    .slice(0, Math.max(1, Math.ceil(rows.length / 100)));
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return Object.fromEntries(
    keys.map((k) => [
      k,
      {
        p50: percentile(
          rows.map((r) => r[k]),
          50,
        ),
        p99: percentile(
          rows.map((r) => r[k]),
          99,
        ),
        slowest_1pct_mean: round(mean(slow.map((r) => r[k])), 1),
      },
    ]),
  );
}

function summary(hook, bare, n, shape) {
  const p99 = percentile(hook.latencies, 99);
  const bareP99 = percentile(bare.latencies, 99);
  const spans = enqueueSpans[shape] ?? [];
  const trace = traceBreakdown(shape);
  return {
    ...(trace ? { trace_ms: trace } : {}),
    // The part of the ACK spent in the chat object's enqueue, as the Worker timed it.
    ...(spans.length > 0
      ? { enqueue_p50_ms: round(percentile(spans, 50)), enqueue_p99_ms: round(percentile(spans, 99)) }
      : {}),
    messages: n,
    ack_p50_ms: round(percentile(hook.latencies, 50)),
    ack_p99_ms: round(p99),
    bare_p50_ms: round(percentile(bare.latencies, 50)),
    bare_p99_ms: round(bareP99),
    p99_ratio_to_bare: round(p99 / bareP99),
    acks_per_second: round((n / hook.wallMs) * 1000, 1),
  };
}

const concurrentGroup = (i) => `BENCHCONC${i % CONCURRENT_CHATS}`;

/** Waits for the chat objects to flush, then counts each concurrent chat's log rows. */
async function deliveryCheck(base, vars, sent) {
  const count = async () => {
    let logged = 0;
    let distinct = 0;
    let answered = 0;
    for (let g = 0; g < CONCURRENT_CHATS; g++) {
      const chat = `qq:group:${concurrentGroup(g)}`;
      const res = await fetch(`${base}/api/messages?chat=${chat}&limit=500`, {
        headers: { authorization: `Bearer ${vars.ADMIN_TOKEN}` },
      });
      // A chat is known once its object has triaged its first message: until then nothing of it
      // is logged, and the admin API answers 404 for it.
      if (res.status === 404) continue;
      if (!res.ok) throw new Error(`/api/messages answered ${res.status}`);
      const { messages } = await res.json();
      const inbound = messages.filter((m) => m.direction === "in");
      logged += inbound.length;
      distinct += new Set(inbound.map((m) => m.messageId)).size;
      answered += messages.filter((m) => m.direction === "out").length;
    }
    return { logged, distinct, answered };
  };
  const deadline = Date.now() + 120_000;
  let seen = await count();
  while ((seen.logged < sent || seen.answered < sent) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000));
    seen = await count();
  }
  const ok = seen.logged === sent && seen.distinct === sent && seen.answered === sent;
  return {
    sent,
    logged_in: seen.logged,
    distinct_in: seen.distinct,
    replies_out: seen.answered,
    ok,
    ...(await chatWork(base, sent)),
  };
}

/**
 * What the concurrent chats' objects did for their messages (local mode): SQLite statements
 * and alarm runs per message — counts, which the machine's load does not stretch. Absent
 * when the Worker has no such route.
 */
async function chatWork(base, sent) {
  const chats = Array.from({ length: CONCURRENT_CHATS }, (_, g) => `qq:group:${concurrentGroup(g)}`);
  const res = await fetch(`${base}/dev/bench/chat-work`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ chats }),
  });
  if (!res.ok) return {};
  const work = await res.json();
  return {
    statements_per_message: round(work.statements / sent, 1),
    alarms_per_message: round(work.alarms / sent, 2),
  };
}

export async function run({ base, vars }) {
  for (const shape of Object.keys(enqueueSpans)) delete enqueueSpans[shape];
  for (const shape of Object.keys(traces)) delete traces[shape];
  const key = privateKey(vars.QQ_BOT_SECRET);
  const post = (round, group) => async (i) => {
    const { res, sentAt } = await postSigned(base, vars.QQ_BOT_APPID, key, body(i, round, group?.(i)));
    recordSpan(round, res.headers.get("server-timing"), sentAt, Date.now());
  };
  const bare = async () => {
    const res = await fetch(`${base}/healthz`);
    await res.arrayBuffer();
  };
  // Warm both paths: isolate start, key import, and the first use of every chat object.
  await timed(CHATS, 1, post("warm"));
  await timed(50, 1, bare);
  const gap = 1000 / RATE;
  const pacedBare = await paced(MESSAGES, gap, bare);
  const pacedHook = await paced(MESSAGES, gap, post("paced"));
  const loopBare = await timed(MESSAGES, CONCURRENCY, bare);
  const loopHook = await timed(MESSAGES, CONCURRENCY, post("loop"));
  // The bare route is measured idle just before, with the same number in flight.
  const concurrentMessages = CONCURRENT_CHATS * CONCURRENT_PER_CHAT;
  await new Promise((r) => setTimeout(r, 5000));
  const concurrentBare = await timed(concurrentMessages, CONCURRENT_INFLIGHT, bare);
  // And under the same load: one /healthz at a time beside the webhooks, so that the wait of
  // any request for the busy thread is measured in the same run as the ACK.
  let loaded = true;
  const underLoad = [];
  const probe = (async () => {
    while (loaded) {
      const t0 = performance.now();
      await bare();
      underLoad.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const concurrentHook = await timed(
    concurrentMessages,
    CONCURRENT_INFLIGHT,
    post("concurrent", concurrentGroup),
  );
  loaded = false;
  await probe;
  return {
    chats: CHATS,
    paced: { rate_per_s: RATE, ...summary(pacedHook, pacedBare, MESSAGES, "paced") },
    back_to_back: { concurrency: CONCURRENCY, ...summary(loopHook, loopBare, MESSAGES, "loop") },
    concurrent: {
      in_flight: CONCURRENT_INFLIGHT,
      chats: CONCURRENT_CHATS,
      ...summary(concurrentHook, concurrentBare, concurrentMessages, "concurrent"),
      bare_under_load: {
        requests: underLoad.length,
        p50_ms: round(percentile(underLoad, 50)),
        p99_ms: round(percentile(underLoad, 99)),
      },
      delivery: await deliveryCheck(base, vars, concurrentMessages),
    },
  };
}
