// (a) Webhook ACK latency: signed GROUP_AT_MESSAGE_CREATE events spread over 50 chats, posted
// to /webhook/qq, next to GET /healthz (a bare 200 route of the same Worker) in the same run.
import { createPrivateKey, sign } from "node:crypto";
import { percentile, round, timed } from "./stats.mjs";

const MESSAGES = Number(process.env.BENCH_WEBHOOK_MESSAGES ?? 2000);
const CHATS = 50;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

function privateKey(secret) {
  let seed = Buffer.from(secret, "utf8");
  while (seed.length < 32) seed = Buffer.concat([seed, seed]);
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed.subarray(0, 32)]);
  return createPrivateKey({ key: der, format: "der", type: "pkcs8" });
}

export async function run({ base, vars }) {
  const key = privateKey(vars.QQ_BOT_SECRET);
  const requests = Array.from({ length: MESSAGES }, (_, i) => {
    const group = `BENCHGROUP${i % CHATS}`;
    const body = JSON.stringify({
      op: 0,
      id: `GROUP_AT_MESSAGE_CREATE:bench${i}`,
      t: "GROUP_AT_MESSAGE_CREATE",
      d: {
        id: `ROBOT1.0_bench${i}`,
        content: ` 第${i}条消息：明天下午三点开会`,
        timestamp: new Date().toISOString(),
        author: { id: `M${i % 7}`, member_openid: `M${i % 7}` },
        group_id: group,
        group_openid: group,
      },
    });
    return body;
  });
  const post = async (i) => {
    const body = requests[i];
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = sign(null, Buffer.from(timestamp + body), key).toString("hex");
    const res = await fetch(`${base}/webhook/qq`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-bot-appid": vars.QQ_BOT_APPID,
        "x-signature-timestamp": timestamp,
        "x-signature-ed25519": signature,
      },
      body,
    });
    if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  };
  const bare = async () => {
    const res = await fetch(`${base}/healthz`);
    await res.arrayBuffer();
  };
  // Warm both paths (isolate start, key import, first Durable Object creations).
  await timed(CHATS, CONCURRENCY, (i) => post(MESSAGES - 1 - i));
  await timed(50, CONCURRENCY, bare);

  const bareRun = await timed(MESSAGES, CONCURRENCY, bare);
  const hookRun = await timed(MESSAGES - CHATS, CONCURRENCY, post);
  const p50 = percentile(hookRun.latencies, 50);
  const p99 = percentile(hookRun.latencies, 99);
  const bareP50 = percentile(bareRun.latencies, 50);
  const bareP99 = percentile(bareRun.latencies, 99);
  return {
    messages: MESSAGES - CHATS,
    chats: CHATS,
    concurrency: CONCURRENCY,
    ack_p50_ms: round(p50),
    ack_p99_ms: round(p99),
    bare_p50_ms: round(bareP50),
    bare_p99_ms: round(bareP99),
    p99_ratio_to_bare: round(p99 / bareP99),
    acks_per_second: round(((MESSAGES - CHATS) / hookRun.wallMs) * 1000, 1),
  };
}
