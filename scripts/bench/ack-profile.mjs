// (g) Where the ACK time goes under load: a V8 CPU profile of the local Worker's isolate (the
// Worker, every chat object's turns and flushes) taken over the inspector while the webhook
// bench's concurrent shape runs (BENCH_CONCURRENT_INFLIGHT in flight over
// BENCH_CONCURRENT_CHATS chats). Needs BENCH_INSPECTOR_PORT (run.mjs then starts wrangler dev
// with --inspector-port). Reports the profile's self time by function and, for the stages of
// a message's life (verification, enqueue, triage, the turn, the flush), the inclusive time,
// next to the wall time, and the idle share: what the one thread spent on what.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { round } from "./stats.mjs";
import { run as webhook } from "./webhook-ack.mjs";

const INSPECTOR = Number(process.env.BENCH_INSPECTOR_PORT ?? 0);
const OUT = process.env.BENCH_PROFILE_OUT ?? null;
// `turn`: profile the per-turn bench instead (turn-bill.mjs), from its first turn on: the
// seeding before it is left out of the profile (the bare FTS queries between turns are in it).
const OF = process.env.BENCH_PROFILE_BENCH ?? "webhook";

/** Functions whose inclusive time names a stage; matched against the profile's function names. */
const STAGES = {
  "webhook: Worker fetch (Hono, all routes)": /^fetch$/,
  "webhook: checks (size, app id, signature, replay)": /^checkQqRequest$/,
  "webhook: parse the event": /^(parseQqEnvelope|toInboundEvent)$/,
  "chat object: enqueue": /^enqueue$/,
  "chat object: alarm (all background work)": /^alarm$/,
  "alarm: triage (log, registry, identity)": /^#?triage$/,
  "alarm: turn (runTurn)": /^runTurn$/,
  "turn: recall + prompt (prepareTurn)": /^prepareTurn$/,
  "turn: model call (offline model)": /^complete$/,
  "alarm: send replies": /^#?send$/,
  "alarm: outbox flush to D1": /^flush$/,
  dreaming: /^runIfDue$/,
  "turn bench: billTurn": /^billTurn$/,
};

async function cdp(port) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl) ?? null;
  if (!target) throw new Error(`no inspector target on port ${port}: ${JSON.stringify(targets)}`);
  // wrangler's inspector proxy refuses an upgrade without an Origin header (undici takes headers).
  const ws = new WebSocket(target.webSocketDebuggerUrl, { headers: { origin: "http://127.0.0.1" } });
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let id = 0;
  const waiting = new Map();
  ws.onmessage = (m) => {
    const msg = JSON.parse(typeof m.data === "string" ? m.data : m.data.toString());
    if (msg.id !== undefined && waiting.has(msg.id)) {
      const { resolve, reject } = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (msg.error) reject(new Error(msg.error.message));
      else resolve(msg.result);
    }
  };
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const n = ++id;
      waiting.set(n, { resolve, reject });
      ws.send(JSON.stringify({ id: n, method, params }));
    });
  return { send, title: target.title ?? target.id, close: () => ws.close() };
}

/**
 * The source module of each bundled script line: esbuild writes a `// src/…` (or
 * `// node_modules/…`) comment before each module it inlines.
 */
async function moduleOfLine(inspector, profile) {
  const ids = [...new Set(profile.nodes.map((n) => n.callFrame.scriptId).filter((id) => id && id !== "0"))];
  await inspector.send("Debugger.enable");
  const modules = new Map();
  for (const id of ids) {
    try {
      const { scriptSource } = await inspector.send("Debugger.getScriptSource", { scriptId: id });
      const lines = scriptSource.split("\n");
      const owner = [];
      let current = null;
      for (const line of lines) {
        const m = /^\/\/ ((?:src|node_modules)\/\S+)/.exec(line);
        if (m) current = m[1];
        owner.push(current);
      }
      modules.set(id, owner);
    } catch {
      // A runtime-internal script: no source to read.
    }
  }
  await inspector.send("Debugger.disable");
  return (frame) => modules.get(frame.scriptId)?.[frame.lineNumber] ?? null;
}

/** Self time per function and inclusive time per stage, in ms. */
function summarize(profile, moduleOf) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n) => n.callFrame.functionName || "(anonymous)";
  const where = (n) =>
    `${name(n)} ${moduleOf(n.callFrame) ?? `${path.basename(n.callFrame.url || "")}:${n.callFrame.lineNumber + 1}`}`;
  const moduleSelf = new Map();
  const self = new Map();
  const stage = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    const node = nodes.get(id);
    self.set(where(node), (self.get(where(node)) ?? 0) + dt);
    const mod = moduleOf(node.callFrame) ?? `(${name(node).startsWith("(") ? name(node) : "runtime"})`;
    moduleSelf.set(mod, (moduleSelf.get(mod) ?? 0) + dt);
    const onStack = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) onStack.add(name(nodes.get(at)));
    for (const [label, re] of Object.entries(STAGES))
      if ([...onStack].some((f) => re.test(f))) stage.set(label, (stage.get(label) ?? 0) + dt);
  });
  const idle = [...self].filter(([k]) => k.startsWith("(idle)")).reduce((a, [, v]) => a + v, 0);
  const top = [...self]
    .filter(([k]) => !k.startsWith("(idle)"))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([fn, ms]) => ({ fn, ms: round(ms, 1), share: round(ms / total, 3) }));
  return {
    profiled_ms: round(total, 0),
    idle_ms: round(idle, 0),
    busy_share: round(1 - idle / total, 3),
    stages_inclusive_ms: Object.fromEntries(
      Object.keys(STAGES).map((k) => [
        k,
        {
          ms: round(stage.get(k) ?? 0, 0),
          share_of_busy: round((stage.get(k) ?? 0) / Math.max(1, total - idle), 3),
        },
      ]),
    ),
    top_self: top,
    // Self time by source module (node_modules/… for libraries, (runtime) for workerd's own).
    top_modules: [...moduleSelf]
      .filter(([k]) => k !== "((idle))")
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(([module, ms]) => ({ module, ms: round(ms, 0), share: round(ms / total, 3) })),
  };
}

/**
 * The isolate's synchronous stretches: runs of consecutive samples under the same entry frame
 * (the stack's bottom JS frame: a request, an RPC call, a timer, a resolved I/O), split at
 * idle and native samples. An ACK step that becomes ready during a stretch waits for its end,
 * so the long ones are the suspects. Each is labelled with the stages on its stacks.
 */
function stretches(profile) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n) => n.callFrame.functionName || "(anonymous)";
  const rootId = profile.nodes[0].id;
  const entryOf = (id) => {
    let at = id;
    while (parent.get(at) !== undefined && parent.get(at) !== rootId) at = parent.get(at);
    return at;
  };
  const runs = [];
  let current = null;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const node = nodes.get(id);
    const entry = entryOf(id);
    const label = name(nodes.get(entry));
    if (label.startsWith("(")) {
      current = null;
      return;
    }
    if (!current || current.entry !== entry) {
      current = { entry, label, ms: 0, stages: new Set() };
      runs.push(current);
    }
    current.ms += dt;
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const fn = name(nodes.get(at));
      for (const [stage, re] of Object.entries(STAGES)) if (re.test(fn)) current.stages.add(stage);
    }
    void node;
  });
  const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
  const q = (p) => ms[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))] ?? 0;
  const byLabel = new Map();
  for (const r of runs.filter((r) => r.ms >= 2)) {
    const key = r.stages.size > 0 ? [...r.stages].sort().join(" + ") : `(entry ${r.label})`;
    const agg = byLabel.get(key) ?? { count: 0, ms: 0, max_ms: 0 };
    agg.count++;
    agg.ms += r.ms;
    agg.max_ms = Math.max(agg.max_ms, r.ms);
    byLabel.set(key, agg);
  }
  return {
    count: runs.length,
    p50_ms: round(q(50), 2),
    p99_ms: round(q(99), 2),
    max_ms: round(ms.at(-1) ?? 0, 2),
    over_2ms: runs.filter((r) => r.ms >= 2).length,
    over_5ms: runs.filter((r) => r.ms >= 5).length,
    // Stretches of 2 ms or more, by the stages on their stacks.
    long_by_stage: [...byLabel]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, 15)
      .map(([stages, a]) => ({ stages, count: a.count, ms: round(a.ms, 0), max_ms: round(a.max_ms, 1) })),
  };
}

export async function run({ base, vars }) {
  if (!INSPECTOR) throw new Error("ack-profile needs BENCH_INSPECTOR_PORT");
  const inspector = await cdp(INSPECTOR);
  await inspector.send("Profiler.enable");
  await inspector.send("Profiler.setSamplingInterval", { interval: 200 });
  let started = false;
  const start = async () => {
    started = true;
    await inspector.send("Profiler.start");
  };
  const plainFetch = globalThis.fetch;
  if (OF === "turn")
    globalThis.fetch = async (url, init) => {
      if (!started && String(url).endsWith("/dev/bench/turn/run")) await start();
      return plainFetch(url, init);
    };
  else await start();
  let result;
  let profile;
  let moduleOf;
  try {
    result =
      OF === "turn"
        ? await (await import("./turn-bill.mjs")).run({ base, vars })
        : await webhook({ base, vars });
  } finally {
    globalThis.fetch = plainFetch;
    profile = (await inspector.send("Profiler.stop")).profile;
    moduleOf = await moduleOfLine(inspector, profile);
    inspector.close();
  }
  if (OUT) writeFileSync(OUT, JSON.stringify(profile));
  return {
    target: inspector.title,
    [OF]: result,
    profile: summarize(profile, moduleOf),
    synchronous_stretches: stretches(profile),
  };
}
