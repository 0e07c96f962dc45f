// `npm run eval -- memory --turns <memorybank-zh turns.jsonl> [--questions <file>] [--split tune|hold]`:
// memory recall, the way a turn recalls what it was told. Each MemoryBank user's own utterances
// become remembered items of one private chat (qq:private:<user>), written through the
// production memory commit; each question (scripts/eval/data/memory-recall.jsonl by default) is
// a later message of that user asking after one of them in other words, with the item(s) that
// answer it as gold. The pipeline is `recallMemory` (automatic recall, memory_search, the
// preview); the baseline is plain FTS5 bm25 over the same items in the same run; `no_decay` is the
// pipeline without memory.decay's age weight; with the local model, the lexical-only pipeline
// (vector weight 0) is printed beside them.
//
// Question file, one object a line:
//   {"id": "mr-01-02", "conv_id": "user-01", "question": "…", "gold": ["2023-04-28:3", …]}
// `gold` lists every item (the utterance's dia_id) that answers the question; any one counts.
// hit@k: a gold item among the first k recalled; MRR@10 of the first gold item.
import { readFileSync } from "node:fs";
import path from "node:path";
import { DAY_MS, shanghai } from "./history-log.mjs";
import { mean, round } from "./recall-metrics.mjs";

export const DEFAULT_MEMORY_QUESTIONS = path.join(import.meta.dirname, "data", "memory-recall.jsonl");
const KS = [1, 3, 5];

export function readMemoryQuestions(file, turnsByConv) {
  const rows = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  for (const q of rows) {
    if (typeof q.question !== "string" || !Array.isArray(q.gold) || q.gold.length === 0)
      throw new Error(`${q.id}: needs question and a non-empty gold`);
    const said = turnsByConv.get(q.conv_id);
    for (const g of q.gold)
      if (!said?.some((t) => t.dia_id === g)) throw new Error(`${q.id}: ${q.conv_id} said no ${g}`);
  }
  return rows;
}

/** hit@k and MRR@10 of ranked dia_id lists against each question's gold. */
export function hitMetrics(ranked, questions) {
  const hits = Object.fromEntries(KS.map((k) => [k, []]));
  const rr = [];
  for (const q of questions) {
    const got = ranked.get(q.id) ?? [];
    const first = got.slice(0, 10).findIndex((id) => q.gold.includes(id));
    for (const k of KS) hits[k].push(first >= 0 && first < k ? 1 : 0);
    rr.push(first >= 0 ? 1 / (first + 1) : 0);
  }
  return {
    ...Object.fromEntries(KS.map((k) => [`hit@${k}`, round(mean(hits[k]))])),
    "MRR@10": round(mean(rr)),
  };
}

/** Each variant's recall in the same run (memory recall takes only a fusion weight). */
async function scoreVariants(variants, recall, questions) {
  const out = {};
  for (const [i, v] of variants.entries())
    out[v.name ?? `v${i}`] = hitMetrics(await recall(v.vectorWeight), questions);
  return out;
}

/** `variants`: [{name, vectorWeight}] recalled beside the pipeline (run.mjs --variants). */
export async function evalMemoryRecall({
  post,
  readJsonl,
  questionsFile,
  split,
  refresh,
  variants,
  maxQueries,
}) {
  const turns = readJsonl("turns").filter((t) => t.role === "user");
  const byConv = new Map();
  for (const t of turns) {
    if (!byConv.has(t.conv_id)) byConv.set(t.conv_id, []);
    byConv.get(t.conv_id).push(t);
  }
  const chatOf = (conv) => `qq:private:${conv}`;
  const diaOf = new Map();
  const lastDay = new Map();
  for (const [conv, said] of byConv) {
    const items = said.map((t, n) => ({
      id: t.dia_id,
      text: t.text,
      at: shanghai(`${t.date}T10:00:00`) + n * 60_000,
    }));
    const r = await post("/memory/items", { chat: chatOf(conv), items });
    for (const [dia, nodeId] of r.ids) diaOf.set(nodeId, dia);
    lastDay.set(conv, said.at(-1).date);
  }
  await refresh();
  const scopes = [...byConv.keys()].map((c) => `chat:${chatOf(c)}`);
  await post("/baseline-index", { scopes, nodeType: "memory" });

  const questions = readMemoryQuestions(questionsFile, byConv)
    .filter(split)
    .slice(0, maxQueries)
    .map((q) => ({
      ...q,
      chat: chatOf(q.conv_id),
      now: shanghai(`${lastDay.get(q.conv_id)}T12:00:00`) + DAY_MS,
    }));

  const recall = async (vectorWeight, decay) => {
    const ranked = new Map();
    for (let i = 0; i < questions.length; i += 100) {
      const r = await post("/memory/recall", {
        limit: 10,
        ...(vectorWeight !== undefined ? { vectorWeight } : {}),
        ...(decay === false ? { decay: false } : {}),
        queries: questions
          .slice(i, i + 100)
          .map((q) => ({ id: q.id, text: q.question, chat: q.chat, now: q.now })),
      });
      for (const x of r.results)
        ranked.set(
          x.id,
          x.items.map((it) => diaOf.get(it.node_id)),
        );
    }
    return ranked;
  };
  const baseline = new Map();
  for (let i = 0; i < questions.length; i += 100) {
    const r = await post("/search", {
      mode: "baseline",
      limit: 10,
      queries: questions
        .slice(i, i + 100)
        .map((q) => ({ id: q.id, text: q.question, scopes: [`chat:${q.chat}`] })),
    });
    for (const x of r.results)
      baseline.set(
        x.id,
        x.items.map((it) => diaOf.get(it.node_id)),
      );
  }
  return {
    dataset: "memory",
    items: turns.length,
    questions: questions.length,
    pipeline: hitMetrics(await recall(), questions),
    // The same pipeline without the age decay of memory.decay (docs/memory.md#decay-and-reinforcement).
    no_decay: hitMetrics(await recall(undefined, false), questions),
    ...(variants.length ? { variants: await scoreVariants(variants, recall, questions) } : {}),
    baseline: hitMetrics(baseline, questions),
  };
}
