// (e) Dreaming's cost per 1,000 group messages: model calls and tokens. Starts its own Worker
// (wrangler dev, fresh state next to the bench's) whose OpenAI-compatible model is a scripted
// server in this process: it answers every extraction request with a fixed, valid extraction,
// reports prompt tokens by the project's own estimate (src/domain/text/token-estimate.ts) and
// counts every call. BENCH_DREAM_MESSAGES unaddressed OneBot messages (default 1,000) go to
// BENCH_DREAM_GROUPS followed groups (default 10); dreaming runs as in production (every
// `afterTurns` waiting turns, at most `maxTurnsPerRun` per run). Baseline in the same run: the
// estimated tokens of the messages' own text, so `prompt_tokens_per_message_token` is the
// prompt's overhead over what was said.

import { existsSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { importTs } from "../lib/ts-import.mjs";
import { applyLocalMigrations, startWranglerDev } from "../lib/wrangler.mjs";
import { round } from "./stats.mjs";

const MESSAGES = Number(process.env.BENCH_DREAM_MESSAGES ?? 1000);
const GROUPS = Number(process.env.BENCH_DREAM_GROUPS ?? 10);
const SETTLE_MS = Number(process.env.BENCH_DREAM_SETTLE_MS ?? 6000);
const SELF = 10000;

const LINES = [
  "我喜欢爬山，周末一般去香山",
  "明天下午三点开会，记得带上周报",
  "有人知道食堂几点关门吗",
  "我下个月搬去上海了",
  "这个版本的构建脚本又挂了，先别合并",
  "我对花生过敏，聚餐别点花生",
  "周五晚上一起打游戏吗",
  "老板说季度总结下周一交",
  "哈哈哈",
  "我家猫叫团子，三岁了",
];

const text = (i) => `${LINES[i % LINES.length]}（${i}）`;

/**
 * Stamped a quarter of an hour ago: a group's turns are dreamed once their privacy window has
 * passed (docs/decisions/0610-dreams-wait-for-the-privacy-window.md), and the bench measures the
 * runs, not the wait.
 */
const SAID_AGO_S = 15 * 60;

function message(group, i) {
  return JSON.stringify({
    time: Math.floor(Date.now() / 1000) - SAID_AGO_S,
    self_id: SELF,
    post_type: "message",
    message_type: "group",
    sub_type: "normal",
    message_id: 1_000_000 + i,
    group_id: group,
    user_id: 20_000 + (i % 7),
    message: [{ type: "text", data: { text: text(i) } }],
    raw_message: text(i),
    font: 0,
    sender: { user_id: 20_000 + (i % 7), nickname: `成员${i % 7}`, card: "", role: "member" },
  });
}

/** The scripted OpenAI-compatible model: counts calls and tokens per purpose. */
async function scriptedModel(estimateTokens) {
  const counts = {
    dream: { calls: 0, prompt: 0, completion: 0, turns: 0 },
    other: { calls: 0, prompt: 0, completion: 0 },
  };
  let lastCallAt = 0;
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw || "{}");
    const prompt = (body.messages ?? []).reduce((n, m) => n + estimateTokens(String(m.content ?? "")), 0);
    const dream = body.response_format?.json_schema?.name === "memory_extraction";
    let content = "好的";
    if (dream) {
      const payload = JSON.parse(body.messages.at(-1).content);
      const firstUser = payload.turns.find((t) => t.role === "user");
      counts.dream.turns += payload.turns.length;
      content = JSON.stringify({
        memories: firstUser
          ? [
              {
                kind: "fact",
                text: `${firstUser.speaker}说：${firstUser.text}`.slice(0, 200),
                importance: 0.5,
                turn: firstUser.turn,
              },
            ]
          : [],
        archive: [],
        summary: "群里在聊日常安排。",
      });
    }
    const completion = estimateTokens(content);
    const bucket = dream ? counts.dream : counts.other;
    bucket.calls++;
    bucket.prompt += prompt;
    bucket.completion += completion;
    lastCallAt = Date.now();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        model: "scripted-counting",
        choices: [{ message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: { prompt_tokens: prompt, completion_tokens: completion },
      }),
    );
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { counts, port: server.address().port, lastCallAt: () => lastCallAt, close: () => server.close() };
}

export async function run({ vars }) {
  const { estimateTokens } = await importTs("src/domain/text/token-estimate.ts");
  const model = await scriptedModel(estimateTokens);
  const port = Number(process.env.BENCH_PORT ?? 8797) + 1;
  const base =
    process.env.BENCH_STATE_DIR ??
    path.join(existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir(), "akasha-bench");
  const persistTo = `${base}-dream`;
  rmSync(persistTo, { recursive: true, force: true });
  applyLocalMigrations(persistTo);
  const server = await startWranglerDev({
    port,
    persistTo,
    quiet: true,
    vars: {
      ...vars,
      LLM_BASE_URL: `http://127.0.0.1:${model.port}/v1`,
      LLM_MODEL: "scripted-counting",
      LLM_API_KEY: "bench",
      // The messages are stamped SAID_AGO_S ago, past the default replay window of OneBot
      // events (ten minutes): the bench widens that window, not the privacy window.
      AKASHA_CONFIG: JSON.stringify({
        follow: { groups: ["*"] },
        webhook: { oneBotMaxAgeSeconds: 2 * SAID_AGO_S },
      }),
    },
  });
  try {
    let messageTokens = 0;
    const started = performance.now();
    for (let i = 0; i < MESSAGES; i++) {
      messageTokens += estimateTokens(text(i));
      const res = await fetch(`http://127.0.0.1:${port}/webhook/onebot`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: message(900_000 + (i % GROUPS), i),
      });
      if (res.status !== 204) throw new Error(`onebot webhook answered ${res.status}`);
    }
    const sentAt = Date.now();
    // Dreaming runs from the chat objects' alarms: wait until no call came for SETTLE_MS.
    for (;;) {
      await new Promise((r) => setTimeout(r, 500));
      if (Date.now() - (model.lastCallAt() || sentAt) >= SETTLE_MS) break;
      if (performance.now() - started > 180_000) break;
    }
    const d = model.counts.dream;
    const per1000 = (x) => (d.turns === 0 ? null : round((x / d.turns) * 1000, 1));
    return {
      messages: MESSAGES,
      groups: GROUPS,
      dreamed_messages: d.turns,
      waiting_for_next_run: MESSAGES - d.turns,
      dream_calls: d.calls,
      dream_prompt_tokens: d.prompt,
      dream_completion_tokens: d.completion,
      per_1000_messages: {
        calls: per1000(d.calls),
        prompt_tokens: per1000(d.prompt),
        completion_tokens: per1000(d.completion),
        tokens: per1000(d.prompt + d.completion),
      },
      baseline_message_tokens_per_1000: round((messageTokens / MESSAGES) * 1000, 1),
      prompt_tokens_per_message_token:
        d.turns === 0 ? null : round(d.prompt / d.turns / (messageTokens / MESSAGES), 2),
      other_model_calls: model.counts.other.calls,
    };
  } finally {
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    server.stop();
    if (server.child.exitCode === null) await exited;
    model.close();
    rmSync(persistTo, { recursive: true, force: true });
  }
}
