// `node scripts/eval/nothing-found-signals.mjs --docs <vue-docs>/docs --dump <file> [--dump <file> …]`:
// would the local model's view of a documentation question tell "the docs do not answer this"
// apart from a question they answer? For each question of `npm run eval -- vue-docs --dump`
// files it ranks the Markdown sections by the model's similarity alone (bge-small-zh-v1.5, query
// prefix, one vector per section: headings and the first 1,500 characters), and prints, per
// dump, what three floors would do next to the pipeline's answer: the best similarity (s1),
// agreement (no section of the pipeline's top 5 among the model's top 10) and agreement by
// file. Read with docs/experiments/0480-nothing-found-and-live-history-levers.md.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { verifiedModel } from "../model/cache.mjs";
import { loadEmbedder } from "../model/embedder.mjs";
import { BGE_SMALL_ZH } from "../model/pinned.mjs";
import { markdownSections } from "./section-bm25.mjs";

const { values } = parseArgs({
  options: { docs: { type: "string" }, dump: { type: "string", multiple: true } },
});
if (!values.docs || !values.dump?.length)
  throw new Error("usage: --docs <dir> --dump <file> [--dump <file> …]");

const walk = (dir, prefix = "") =>
  readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      const rel = prefix ? `${prefix}/${name}` : name;
      return statSync(full).isDirectory() ? walk(full, rel) : name.endsWith(".md") ? [{ full, rel }] : [];
    });
const sections = walk(values.docs)
  .flatMap((f) => markdownSections(f.rel, readFileSync(f.full, "utf8")))
  .map((s) => ({
    id: `${s.path}#${s.anchor ?? ""}`,
    text: `${s.headings.join(" > ")}\n${s.text}`.slice(0, 1500),
  }));
const model = await loadEmbedder(BGE_SMALL_ZH, await verifiedModel(BGE_SMALL_ZH), { threads: 2 });
const sectionVectors = (await model.embed(sections.map((s) => s.text))).vectors;
const dot = (a, b) => a.reduce((n, x, i) => n + x * b[i], 0);
const fileOf = (id) => id.split("#")[0];

const floors = {
  "similarity s1 < 0.62": (q) => q.ranked[0].sim < 0.62,
  "no agreement in top 10": (q) => !q.pipeline.some((id) => q.top(10).includes(id)),
  "no agreement by file in top 5": (q) => !q.pipeline.some((id) => q.top(5).map(fileOf).includes(fileOf(id))),
};

for (const file of values.dump) {
  const rows = readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const queries = (await model.embed(rows.map((r) => BGE_SMALL_ZH.queryPrefix + r.searched))).vectors;
  const questions = rows.map((r, i) => {
    const ranked = sections.map((s, k) => ({ id: s.id, sim: dot(queries[i], sectionVectors[k]) }));
    ranked.sort((a, b) => b.sim - a.sim);
    return { ...r, ranked, top: (k) => ranked.slice(0, k).map((s) => s.id) };
  });
  const unanswerable = questions.filter((q) => q.kind === "unanswerable");
  const answered = questions.filter((q) => q.kind !== "unanswerable" && q.pipeline.length > 0);
  const out = { dump: path.basename(file), unanswerable: unanswerable.length, emptied_now: 0, floors: {} };
  out.emptied_now = unanswerable.filter((q) => q.pipeline.length === 0).length;
  for (const [name, empties] of Object.entries(floors)) {
    const wronglyEmptied = answered.filter(empties);
    out.floors[name] = {
      unanswerable_emptied: unanswerable.filter((q) => q.pipeline.length === 0 || empties(q)).length,
      answerable_emptied: wronglyEmptied.length,
      of_them_with_gold_in_top5: wronglyEmptied.filter((q) => q.pipeline.some((id) => q.gold.includes(id)))
        .length,
    };
  }
  console.log(JSON.stringify(out));
}
model.close();
