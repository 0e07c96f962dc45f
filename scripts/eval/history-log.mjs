// Shared by the history evaluations (locomo, memorybank): write a dataset's utterances into
// the live message log through /dev/eval/history/messages, and ask questions through
// /dev/eval/history/ask — the code `history_search` runs ("live": days and senders read from
// the question) or the same search with that resolution off ("plain": the words alone).

import { writeFileSync } from "node:fs";
import { recallMetrics } from "./recall-metrics.mjs";

/** Writes each chat's utterances ({id, ts, speaker, role, text}) in order. */
export async function writeLog(post, byChat) {
  let written = 0;
  for (const [chat, messages] of byChat) {
    for (let i = 0; i < messages.length; i += 400) {
      const r = await post("/history/messages", { chat, messages: messages.slice(i, i + 400) });
      written += r.messages;
    }
  }
  return written;
}

/**
 * id → {items, resolved} for every query ({id, text, chat, now}). `lexical`: the words' order
 * alone, without the reranker the settings may give history (the same-run baseline).
 */
export async function askAll(post, mode, queries, limit = 10, { lexical = false } = {}) {
  const out = new Map();
  for (let i = 0; i < queries.length; i += 100) {
    const r = await post("/history/ask", { mode, limit, lexical, queries: queries.slice(i, i + 100) });
    for (const q of r.results) {
      if (q.error) throw new Error(`${q.id}: ${q.error}`);
      out.set(q.id, q);
    }
  }
  return out;
}

/**
 * recall@k: the share of a question's gold keys among the keys of its top k items (`keysOf`);
 * MRR@10 of the first item with a gold key.
 */
export function recallAt(results, questions, gold, keysOf, ks, { withContext = false } = {}) {
  const items = new Map(
    questions.map((q) => {
      const all = results.get(q.id)?.items ?? [];
      // Matches only, unless the context turns count too (as the tree path's items do).
      return [q.id, withContext ? all : all.filter((it) => it.via !== "context")];
    }),
  );
  return recallMetrics(items, questions, gold, keysOf, ks);
}

/** Milliseconds of a local wall-clock time in China (the zone history dates are read in). */
export const shanghai = (isoLocal) => Date.parse(`${isoLocal}+08:00`);
export const DAY_MS = 86_400_000;

/**
 * --live-dump <file>: the log as written (first line, `{"chats": {chat: [{id, ts, speaker, role,
 * text}]}}`) and every question ({id, chat, question, gold, category, resolved, matches}) with the
 * live search's first 100 matches and the days and senders it resolved, for fusing another
 * ranking offline (scripts/eval/history-vector-leg.mjs).
 */
export async function dumpLive(post, file, byChat, questions, gold) {
  const wide = await askAll(post, "live", questions, 100);
  const lines = [JSON.stringify({ chats: Object.fromEntries(byChat) })];
  for (const q of questions) {
    const r = wide.get(q.id);
    const matches = (r?.items ?? []).filter((it) => it.via !== "context").map((it) => it.message_id);
    lines.push(
      JSON.stringify({
        id: q.id,
        chat: q.chat,
        question: q.text,
        gold: gold(q),
        category: q.category ?? null,
        category_name: q.category_name ?? null,
        resolved: r?.resolved ?? null,
        matches,
      }),
    );
  }
  writeFileSync(file, `${lines.join("\n")}\n`);
}
