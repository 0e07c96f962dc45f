// (a) Webhook ACK latency: signed GROUP_AT_MESSAGE_CREATE events spread over 50 chats, posted
// to /webhook/qq, next to GET /healthz (a bare 200 route of the same Worker) measured the same
// way in the same run. Two load shapes:
//   paced       — messages arrive at a fixed rate (BENCH_RATE per second, open loop), as a
//                 busy bot receives them; latency is the ACK path plus any queueing behind
//                 the turns still running in the background;
//   back-to-back — the next message is sent as soon as the previous one is acknowledged
//                 (BENCH_CONCURRENCY in flight): a saturation test.
// Everything runs in one local workerd process (Worker, chat objects and the D1 simulation
// share its event loop), unlike production, where they run apart.
import { createPrivateKey, sign } from "node:crypto";
import { percentile, round, timed } from "./stats.mjs";

const MESSAGES = Number(process.env.BENCH_WEBHOOK_MESSAGES ?? 2000);
const CHATS = 50;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 1);
const RATE = Number(process.env.BENCH_RATE ?? 10);

function privateKey(secret) {
  let seed = Buffer.from(secret, "utf8");
  while (seed.length < 32) seed = Buffer.concat([seed, seed]);
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed.subarray(0, 32)]);
  return createPrivateKey({ key: der, format: "der", type: "pkcs8" });
}

function body(i, round) {
  const group = `BENCHGROUP${i % CHATS}`;
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

function summary(hook, bare, n) {
  const p99 = percentile(hook.latencies, 99);
  const bareP99 = percentile(bare.latencies, 99);
  return {
    messages: n,
    ack_p50_ms: round(percentile(hook.latencies, 50)),
    ack_p99_ms: round(p99),
    bare_p50_ms: round(percentile(bare.latencies, 50)),
    bare_p99_ms: round(bareP99),
    p99_ratio_to_bare: round(p99 / bareP99),
    acks_per_second: round((n / hook.wallMs) * 1000, 1),
  };
}

export async function run({ base, vars }) {
  const key = privateKey(vars.QQ_BOT_SECRET);
  const post = (round) => async (i) => {
    const text = body(i, round);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = sign(null, Buffer.from(timestamp + text), key).toString("hex");
    const res = await fetch(`${base}/webhook/qq`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-bot-appid": vars.QQ_BOT_APPID,
        "x-signature-timestamp": timestamp,
        "x-signature-ed25519": signature,
      },
      body: text,
    });
    if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
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
  return {
    chats: CHATS,
    paced: { rate_per_s: RATE, ...summary(pacedHook, pacedBare, MESSAGES) },
    back_to_back: { concurrency: CONCURRENCY, ...summary(loopHook, loopBare, MESSAGES) },
  };
}
