// The replay half of `npm run eval -- write-merge` (write-merge.mjs): MemoryBank-zh dreamed with
// the set's statements planted, merge on and off, duplicates judged by the labels, not the detector.

import { dreamTurnsOfDay, shanghai } from "./domain-bundle.mjs";

/** A pair's statement in the person's own words: their name at the start becomes "我". */
const ownWords = (text, name) => (text.startsWith(name) ? `我${text.slice(name.length)}` : null);

/** One user's days, with the pairs naming that user planted: first statement on day 2, second on day 7. */
function daysOf(turns, plants) {
  const days = new Map();
  for (const t of turns) {
    if (!days.has(t.session)) days.set(t.session, { date: t.date, turns: [] });
    days.get(t.session).turns.push(t);
  }
  const name = turns.find((t) => t.role === "user")?.speaker ?? "";
  for (const p of plants) {
    for (const [side, session] of [
      ["a", 2],
      ["b", 7],
    ]) {
      const text = ownWords(p[side], name);
      const day = days.get(session);
      if (text && day)
        day.turns.splice(1, 0, { role: "user", speaker: name, text, dia_id: `plant:${p.id}:${side}` });
    }
  }
  return [...days.entries()].sort((a, b) => a[0] - b[0]).map(([, d]) => d);
}

/**
 * The measured model as the write path's restatement vectors (restatement-vectors.ts): new
 * statements embedded as the Worker embeds them, and every stored item's vector read as if the
 * embeddings refresh had run before each day's dreaming. Each text is embedded once per process.
 * The write path turns a failing model into a lexical write; here a failure is kept in `failures`
 * so the run stops rather than report a vectors run that had none.
 */
function modelRestatements(store, { embedder, cache, threshold, failures }) {
  const vectorsOf = async (texts) => {
    const todo = [...new Set(texts)].filter((t) => !cache.has(t));
    if (todo.length > 0) {
      let vectors;
      try {
        ({ vectors } = await embedder.embed(todo));
      } catch (e) {
        failures.push(e);
        throw e;
      }
      for (const [i, t] of todo.entries()) cache.set(t, vectors[i]);
    }
    return texts.map((t) => cache.get(t));
  };
  return {
    threshold,
    maxBatch: 32,
    embed: vectorsOf,
    async stored(ids) {
      const items = store.items.filter((m) => ids.includes(m.nodeId));
      const vectors = await vectorsOf(items.map((m) => m.text));
      return new Map(items.map((m, i) => [m.nodeId, vectors[i]]));
    },
  };
}

async function dreamUser(api, store, conv, days, merge) {
  const chat = `qq:private:${conv.replace("-", "")}`;
  let candidates = 0;
  for (const [i, day] of days.entries()) {
    const turns = dreamTurnsOfDay(day, conv);
    const now = shanghai(day.date, 20);
    const report = await api.dream(
      { runId: `dream:${chat}:${i}`, session: chat, turns, now, useModel: false },
      {
        model: new api.OfflineChatModel(),
        store,
        logger: api.silentLogger,
        now: () => now,
        mergeRestatements: merge !== false,
        restatements: merge?.embedder ? modelRestatements(store, merge) : null,
      },
    );
    if (report.ok) candidates += report.value.candidates - report.value.rejected;
  }
  return candidates;
}

const plantsOf = (item) => (item.evidence?.messageIds ?? []).filter((m) => m.startsWith("plant:"));

/** Items that duplicate an earlier active item of their scope, by the labels or by equal text. */
function duplicates(api, items, labels) {
  const active = items.filter((m) => m.status === "active");
  const dups = [];
  for (const [j, b] of active.entries()) {
    const twin = active.slice(0, j).find((a) => {
      if (api.scopeKey(a.scope) !== api.scopeKey(b.scope)) return false;
      if (api.normalizeMemoryText(a.text) === api.normalizeMemoryText(b.text)) return true;
      const pa = plantsOf(a).map((m) => m.split(":")[1]);
      return plantsOf(b).some((m) => pa.includes(m.split(":")[1]) && labels.get(m.split(":")[1]) === "same");
    });
    if (twin) dups.push({ kept: twin.text, also: b.text });
  }
  return dups;
}

/** Items holding both statements of a pair: a merge, right or wrong by its label. */
function mergedPairs(items, labels) {
  const out = { right: 0, wrong: [] };
  for (const m of items) {
    const ids = plantsOf(m).map((x) => x.split(":")[1]);
    for (const id of new Set(ids)) {
      if (ids.filter((x) => x === id).length < 2) continue;
      if (labels.get(id) === "same") out.right++;
      else out.wrong.push({ pair: id, text: m.text });
    }
  }
  return out;
}

/**
 * Runs: merge by words, merge with a model's vectors (when `vectors` = {embedder, cache, threshold}
 * is given: "merge_vectors"), and no merge.
 */
export async function replay(api, turns, plants, vectors = null) {
  const labels = new Map(plants.map((p) => [p.id, p.label]));
  const convs = [...new Set(turns.map((t) => t.conv_id))].sort();
  const summary = {};
  const dump = {};
  const runs = [
    ["merge", true],
    ...(vectors ? [["merge_vectors", { ...vectors, failures: [] }]] : []),
    ["baseline", false],
  ];
  for (const [name, merge] of runs) {
    let dreamed = 0;
    const items = [];
    const candidates = [];
    for (const conv of convs) {
      const store = new api.InMemoryMemory();
      dreamed += await dreamUser(
        api,
        store,
        conv,
        daysOf(
          turns.filter((t) => t.conv_id === conv),
          plants,
        ),
        merge,
      );
      if (merge?.failures?.length) throw merge.failures[0];
      items.push(...store.items);
      candidates.push(...store.candidates);
    }
    const dups = duplicates(api, items, labels);
    const merged = mergedPairs(items, labels);
    const per1000 = (n) => Math.round((n / Math.max(1, dreamed)) * 10_000) / 10;
    summary[name] = {
      dreamed_items: dreamed,
      stored_active: items.filter((m) => m.status === "active").length,
      duplicates: dups.length,
      duplicates_per_1000_dreamed: per1000(dups.length),
      merges: candidates.filter((c) => c.evidence?.merge).length,
      right_pair_merges: merged.right,
      wrong_pair_merges: merged.wrong.length,
    };
    dump[name] = {
      duplicates: dups,
      wrong: merged.wrong,
      merges: candidates
        .filter((c) => c.evidence?.merge)
        .map((c) => ({
          text: c.text,
          target: items.find((m) => m.nodeId === c.evidence.merge.into)?.text,
          ...c.evidence.merge,
        })),
    };
  }
  return { summary, dump };
}
