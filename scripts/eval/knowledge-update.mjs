// `npm run eval -- knowledge-update [--set <file>] [--data <dir>] [--dump <file>] [--later <days>]`: facts that change
// (docs/memory.md#validity-in-time), on MemoryBank-zh (AKASHA_EVAL_DATA or --data: the folder with
// memorybank-zh/turns.jsonl). Each user's ten days are dreamed offline, one run per day (the rule
// extractor, as without a chat model), into an in-memory store with the D1 adapter's visibility
// rules, in that user's private chat; the set (scripts/eval/data/knowledge-update.jsonl) names for
// each user a slot whose value changed — organic ("最近在学…" chains the users themselves say) or
// planted (a residence or job statement added on day 2 and a changed one on day 7). Then, the
// day after the last session, it asks "now" (is the current value recalled at rank 1?) and
// "before" (is a past value at rank 1, marked as past?). The baseline in the same run is the same
// store with validity taken away: every closed item open again, no slot, and recall reading
// every question as about the present. A third arm, `decay`, is `validity` with the per-kind age
// decay of `memory.decay` at its defaults (docs/memory.md#decay-and-reinforcement); `--later <days>`
// asks that many days after the last session instead of one, where decay has something to do.
// No Worker, no D1.
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";
import { evalDataDir } from "./data-dir.mjs";
import { bundleDomain, dreamTurnsOfDay, readJsonl, shanghai } from "./domain-bundle.mjs";

/** Milliseconds of a Shanghai wall-clock time (MemoryBank gives days, not times). */
const DAY = 86_400_000;

/** The domain code this evaluation runs, bundled (its tokenizer imports JSON, as the Worker's bundle does). */
async function load() {
  const modules = [
    "src/domain/memory/dreaming.ts",
    "src/domain/memory/recall.ts",
    "src/domain/memory/as-of.ts",
    "src/domain/memory/scope.ts",
    "src/domain/config/memory-decay-settings.ts",
    "src/domain/agent/offline-chat-model.ts",
    "src/domain/kernel/logger.ts",
    "tests/fakes/in-memory-memory.ts",
  ];
  return bundleDomain(modules);
}

/** One user's days as dream turns, the set's planted statements among them. */
function daysOf(turns, item) {
  const days = new Map();
  for (const t of turns) {
    if (!days.has(t.session)) days.set(t.session, { date: t.date, turns: [] });
    days.get(t.session).turns.push(t);
  }
  for (const p of item?.plant ?? []) {
    const day = days.get(p.session);
    day.turns.splice(1, 0, {
      role: "user",
      speaker: turns[0].speaker,
      text: p.text,
      dia_id: `plant:${p.session}`,
    });
  }
  return [...days.entries()].sort((a, b) => a[0] - b[0]).map(([, d]) => d);
}

async function dreamUser(api, store, conv, days) {
  const chat = `qq:private:${conv.replace("-", "")}`;
  for (const [i, day] of days.entries()) {
    const turns = dreamTurnsOfDay(day, conv);
    const now = shanghai(day.date, 20);
    await api.dream(
      { runId: `dream:${chat}:${i}`, session: chat, turns, now, useModel: false },
      { model: new api.OfflineChatModel(), store, logger: api.silentLogger, now: () => now },
    );
  }
  return { chat, last: shanghai(days.at(-1).date, 12) };
}

/** The same store without validity: closed items open, no slot, nothing read as the past. */
function withoutValidity(api, store) {
  const open = store.items.map((m) => ({
    ...m,
    status: m.status === "superseded" ? "active" : m.status,
    subjectKey: null,
    validTo: null,
    closedBy: null,
  }));
  return new api.InMemoryMemory(open);
}

async function ask(api, store, chat, text, now, validity, decay) {
  const { turnScopes } = api;
  const found = await api.recallMemory(
    { index: store },
    {
      text,
      scopes: turnScopes({ session: chat, identity: null }),
      soft: false,
      limit: 5,
      now,
      halfLifeDays: 30,
      timeZone: "Asia/Shanghai",
      ...(validity ? {} : { asOf: api.CURRENT }),
      ...(decay ? { decay: api.DEFAULT_MEMORY_DECAY_SETTINGS } : {}),
    },
  );
  return found.map((r) => ({ text: api.recalledText(r), past: r.past !== null }));
}

const has = (hit, values) => hit !== undefined && values.some((v) => hit.text.includes(v));

function score(rows) {
  const n = rows.length;
  const pct = (k) => (n === 0 ? 0 : Math.round((rows.filter(k).length / n) * 1000) / 10);
  return {
    n,
    current_at_1: pct((r) => has(r.now[0], [r.item.current]) && !r.now[0].past),
    past_at_1: pct((r) => has(r.before[0], r.item.past)),
    past_at_1_marked: pct((r) => has(r.before[0], r.item.past) && r.before[0].past),
    stale_at_1_now: pct((r) => has(r.now[0], r.item.past) && !has(r.now[0], [r.item.current])),
  };
}

export async function evalKnowledgeUpdate(flags) {
  const api = await load();
  const setFile =
    typeof flags.set === "string" ? flags.set : path.join(root, "scripts/eval/data/knowledge-update.jsonl");
  const dataDir = typeof flags.data === "string" ? path.resolve(flags.data) : evalDataDir();
  const turns = readJsonl(path.join(dataDir, "memorybank-zh", "turns.jsonl"));
  const set = readJsonl(setFile);
  if (!api.DEFAULT_MEMORY_DECAY_SETTINGS?.halfLifeDays)
    throw new Error("decay settings missing from the bundle");
  const later = typeof flags.later === "string" ? Number(flags.later) : 1;
  if (!Number.isFinite(later) || later < 1) throw new Error("--later must be a number of days ≥ 1");
  const results = { validity: [], decay: [], baseline: [] };
  for (const item of set) {
    const mine = turns.filter((t) => t.conv_id === item.conv_id);
    const store = new api.InMemoryMemory();
    const { chat, last } = await dreamUser(api, store, item.conv_id, daysOf(mine, item));
    const asked = last + later * DAY;
    for (const [name, s, validity, decay] of [
      ["validity", store, true, false],
      ["decay", store, true, true],
      ["baseline", withoutValidity(api, store), false, false],
    ]) {
      results[name].push({
        item,
        now: await ask(api, s, chat, item.now, asked, validity, decay),
        before: await ask(api, s, chat, item.before, asked, validity, decay),
      });
    }
  }
  const report = { set: path.relative(root, setFile), items: set.length, later_days: later };
  for (const [name, rows] of Object.entries(results)) {
    report[name] = {};
    for (const split of ["dev", "held"]) {
      const of = rows.filter((r) => r.item.split === split);
      report[name][split] = {
        all: score(of),
        organic: score(of.filter((r) => r.item.source === "organic")),
        planted: score(of.filter((r) => r.item.source === "planted")),
      };
    }
  }
  // How often decay moved anything against the same run without it: the first hit, or the order of the five.
  const moved = (pick) =>
    results.decay.filter((r, i) => {
      const [a, b] = [r, results.validity[i]].map((x) => JSON.stringify(pick(x).map((h) => h.text)));
      return a !== b;
    }).length;
  report.decay_vs_validity = {
    questions: results.decay.length * 2,
    top1_changed: moved((x) => x.now.slice(0, 1)) + moved((x) => x.before.slice(0, 1)),
    top5_order_changed: moved((x) => x.now) + moved((x) => x.before),
    // With one hit there is no order for decay to change.
    mean_hits:
      Math.round(
        (results.decay.reduce((n, r) => n + r.now.length + r.before.length, 0) / (results.decay.length * 2)) *
          100,
      ) / 100,
  };
  if (typeof flags.dump === "string") writeFileSync(flags.dump, JSON.stringify(results, null, 1));
  console.log(JSON.stringify(report, null, 1));
}
