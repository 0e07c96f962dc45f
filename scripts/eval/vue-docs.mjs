// `npm run eval -- vue-docs`: section-level quality of `POST /api/kb/search` on Markdown
// documentation, next to the section-BM25 baseline computed in the same run. The collection is
// built the way an owner would (`kb create` + `kb import --recursive` through the admin API), the
// questions go through the same route the CLI uses (limit 5, default profile), and every cited
// item is mapped to the section it belongs to (a passage's parent section, or the section itself
// when a short section is returned whole) by its `anchor`.
//
// Question file (JSON Lines, scripts/eval/data/vue-docs.dev.jsonl by default), one object a line:
//   {"id": "term-01", "kind": "term" | "paraphrase" | "followup" | "unanswerable",
//    "turns": ["earlier user turns, oldest first", …],   // followup only
//    "question": "…",
//    "gold": [{"path": "guide/essentials/computed.md", "anchor": "writable-computed"}, …]}
// `gold` lists every section that answers the question (any one counts); it is empty for
// unanswerable questions, whose score is the share answered with nothing.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { markdownSections, SectionBm25 } from "./section-bm25.mjs";

export const DEFAULT_QUESTIONS = path.join(import.meta.dirname, "data", "vue-docs.dev.jsonl");
export const KINDS = ["term", "paraphrase", "followup", "switch", "unanswerable"];
const LIMIT = 5;

function walk(dir, prefix = "") {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      const rel = prefix ? `${prefix}/${name}` : name;
      return statSync(full).isDirectory() ? walk(full, rel) : name.endsWith(".md") ? [{ full, rel }] : [];
    });
}

export function readQuestions(file) {
  const rows = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  for (const q of rows) {
    if (!KINDS.includes(q.kind)) throw new Error(`${q.id}: unknown kind ${q.kind}`);
    if (typeof q.question !== "string" || !Array.isArray(q.gold))
      throw new Error(`${q.id}: needs question, gold`);
    if ((q.kind === "unanswerable") !== (q.gold.length === 0))
      throw new Error(`${q.id}: gold must be empty exactly for unanswerable questions`);
  }
  return rows;
}

/** What the baseline searches for: the question, after the earlier user turns when there are any. */
const baselineQuery = (q) => [...(q.turns ?? []), q.question].join("\n");

/** Per kind: hit@1, hit@5, MRR@5 over answerable questions; share of empty answers for the rest. */
export function score(questions, ranked) {
  const out = {};
  for (const kind of KINDS) {
    const qs = questions.filter((q) => q.kind === kind);
    if (qs.length === 0) continue;
    if (kind === "unanswerable") {
      const empty = qs.filter((q) => (ranked.get(q.id) ?? []).length === 0).length;
      out[kind] = { n: qs.length, empty, share_empty: round(empty / qs.length) };
      continue;
    }
    out[kind] = hits(qs, ranked);
  }
  const answerable = questions.filter((q) => q.kind !== "unanswerable");
  out.answerable = hits(answerable, ranked);
  out.answerable.emptied = answerable.filter((q) => (ranked.get(q.id) ?? []).length === 0).map((q) => q.id);
  out.answerable.mean_items = round(
    answerable.reduce((n, q) => n + (ranked.get(q.id) ?? []).length, 0) / Math.max(1, answerable.length),
  );
  return out;
}

function hits(qs, ranked) {
  let h1 = 0;
  let h5 = 0;
  let rr = 0;
  for (const q of qs) {
    const want = new Set(q.gold.map((g) => `${g.path}#${g.anchor}`));
    const first = (ranked.get(q.id) ?? []).slice(0, LIMIT).findIndex((key) => want.has(key));
    if (first === 0) h1++;
    if (first >= 0) {
      h5++;
      rr += 1 / (first + 1);
    }
  }
  const n = qs.length;
  return { n, "hit@1": round(h1 / n), "hit@5": round(h5 / n), "MRR@5": round(rr / n) };
}

const round = (x) => Math.round(x * 1000) / 1000;

/**
 * Runs the set against a started Worker at `base` (admin token `token`): creates and imports the
 * collection, searches every question, scores pipeline and baseline.
 */
export async function evalVueDocs({ base, token, docsDir, questionsFile, chunkSize, chunkOverlap, dumpTo }) {
  const api = async (method, route, body) => {
    const res = await fetch(`${base}/api${route}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body && !(body instanceof FormData) ? { "content-type": "application/json" } : {}),
      },
      body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text);
  };
  const files = walk(docsDir);
  const questions = readQuestions(questionsFile);

  await api("POST", "/kb/collections", { name: "vue-docs", chunkSize, chunkOverlap });
  const started = Date.now();
  for (let i = 0; i < files.length; i += 20) {
    const form = new FormData();
    for (const f of files.slice(i, i + 20)) form.append("files", new Blob([readFileSync(f.full)]), f.rel);
    const r = await api("POST", "/kb/collections/vue-docs/documents", form);
    const failed = (r.results ?? []).filter((x) => x.status === "failed");
    if (failed.length > 0) throw new Error(`import failed: ${JSON.stringify(failed.slice(0, 3))}`);
  }
  const importSeconds = (Date.now() - started) / 1000;

  // Section of a cited node: itself when it is a section, else its parent (passages hang under
  // the section whose own text they carry). Cached: many hits share a section.
  const sectionOf = new Map();
  const sectionKey = async (citation) => {
    if (sectionOf.has(citation.node_id)) return sectionOf.get(citation.node_id);
    const read = await api("GET", `/kb/nodes/${encodeURIComponent(citation.node_id)}?mode=parents`);
    const own = read.node;
    const section =
      own.nodeType === "section"
        ? own
        : read.related.find((n) => n.nodeId === own.parentId && n.nodeType === "section");
    const key = section?.metadata?.anchor
      ? `${citation.source}#${section.metadata.anchor}`
      : `${citation.source}#?`;
    sectionOf.set(citation.node_id, key);
    return key;
  };

  const pipeline = new Map();
  const raw = new Map();
  const searched = new Map();
  const rewrites = {};
  let searchMs = 0;
  for (const q of questions) {
    const t0 = Date.now();
    // The earlier turns go apart from the question: the route's follow-up fusion decides how
    // they are used, as kb_search does with the chat's recent user turns.
    const r = await api("POST", "/kb/search", {
      query: q.question,
      ...(q.turns?.length ? { turns: q.turns } : {}),
      collections: ["vue-docs"],
      limit: LIMIT,
    });
    searchMs += Date.now() - t0;
    raw.set(q.id, r.items);
    // How the route read the question: `model` (rewritten by the chat model), `fusion`, `as-is`.
    const via = r.query?.via ?? "as-is";
    rewrites[via] = (rewrites[via] ?? 0) + 1;
    searched.set(q.id, r.query?.text ?? q.question);
    const keys = [];
    for (const it of r.items) keys.push(await sectionKey(it.citation));
    pipeline.set(q.id, keys);
  }

  const sections = files.flatMap((f) => markdownSections(f.rel, readFileSync(f.full, "utf8")));
  const bm25 = new SectionBm25(sections);
  const baseline = new Map(
    questions.map((q) => [q.id, bm25.search(baselineQuery(q), LIMIT).map((s) => `${s.path}#${s.anchor}`)]),
  );
  if (dumpTo) {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(
      dumpTo,
      `${questions
        .map((q) =>
          JSON.stringify({
            id: q.id,
            kind: q.kind,
            question: q.question,
            searched: searched.get(q.id),
            gold: q.gold.map((g) => `${g.path}#${g.anchor}`),
            pipeline: pipeline.get(q.id),
            scores: raw.get(q.id).map((it) => it.score),
            coverage: raw.get(q.id).map((it) => it.coverage),
            baseline: baseline.get(q.id),
          }),
        )
        .join("\n")}\n`,
    );
  }
  return {
    dataset: "vue-docs",
    questions: questions.length,
    files: files.length,
    sections: sections.length,
    chunk_size: chunkSize,
    import_seconds: round(importSeconds),
    search_ms_mean: round(searchMs / questions.length),
    query_via: rewrites,
    pipeline: score(questions, pipeline),
    baseline: score(questions, baseline),
  };
}
