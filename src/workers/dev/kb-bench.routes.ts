/**
 * Local-only routes for `npm run bench -- kb` (mounted under /dev/bench): seed a collection
 * with synthetic Chinese passages through the production import path, and time kb_search
 * (the whole pipeline) next to the bare FTS5 query it starts from, inside the Worker.
 */
import { Hono } from "hono";
import { z } from "zod";
import { createKnowledgeServices } from "../../composition/common/knowledge-services";
import { loadSettings } from "../../composition/settings/settings-loader";
import { importFile } from "../../domain/knowledge/import-documents";
import { profileOptions, searchKnowledge } from "../../domain/knowledge/knowledge-search";
import { collectionScope } from "../../domain/retrieval/scope-key";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { jsonBody } from "../json-body";
import { type D1Busy, type StatementRows, type StatementTimes, timingD1 } from "./timing-d1";

const CHARS =
  "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严";
const LATIN = [
  "vue",
  "react",
  "cloudflare",
  "worker",
  "durable",
  "object",
  "vector",
  "index",
  "sqlite",
  "token",
];

/** Deterministic generator (LCG) so runs and sizes are comparable. */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 4294967296;
  };
}

function word(r: () => number): string {
  if (r() < 0.05) return LATIN[Math.floor(r() * LATIN.length)] ?? "vue";
  const n = 2 + Math.floor(r() * 2);
  // Zipf-like: low indices far more often, like real vocabulary.
  let w = "";
  for (let i = 0; i < n; i++) w += CHARS[Math.floor(CHARS.length * r() ** 2.2)] ?? "的";
  return w;
}

export function syntheticPassage(seed: number, chars = 160): string {
  const r = rng(seed * 7919 + 17);
  let out = "";
  while (out.length < chars) out += word(r) + (r() < 0.12 ? "。" : r() < 0.2 ? "，" : "");
  return `${out}。`;
}

const SeedSchema = z.object({
  collection: z.string().regex(/^bench-[a-z0-9-]+$/),
  offset: z.number().int().min(0),
  documents: z.number().int().min(1).max(500),
  passagesPerDocument: z.number().int().min(1).max(100),
  /** Also compute embeddings of the new passages (timed separately). */
  embed: z.boolean().default(false),
  /** Embed with this model of knowledge.embeddings.models alone, instead of the ones written to. */
  embedWith: z.string().optional(),
});

const SearchSchema = z.object({
  collection: z.string(),
  /** `profile`: the pipeline, with every D1 round trip timed by its SQL. */
  mode: z.enum(["pipeline", "fts", "profile"]),
  /** Each query is a slice of a seeded passage (document d = passage / 10, passage p = passage % 10). */
  queries: z
    .array(z.object({ passage: z.number().int().min(0), length: z.number().int().min(2).max(40) }))
    .max(200),
});

export const kbBenchRoutes = new Hono<AppEnv>()
  .post("/kb-seed", jsonBody(SeedSchema), async (c) => {
    const body = c.req.valid("json");
    const settings = await loadSettings(c.env);
    const kb = createKnowledgeServices(c.env, settings);
    await kb.store.createCollection(
      { name: body.collection, title: null, description: null, chunkSize: 200, chunkOverlap: 0 },
      Date.now(),
    );
    const collection = await kb.store.getCollection(body.collection);
    if (!collection) return problem(c, { kind: "not-found", what: `collection ${body.collection}` });
    const encoder = new TextEncoder();
    const started = performance.now();
    let passages = 0;
    for (let d = 0; d < body.documents; d++) {
      const doc = body.offset + d;
      const text = Array.from({ length: body.passagesPerDocument }, (_, p) =>
        syntheticPassage(doc * 1000 + p),
      ).join("\n\n");
      const r = await importFile(kb.importDeps, collection, {
        name: `doc-${doc}.txt`,
        bytes: encoder.encode(text),
      });
      if (r.status !== "failed") passages += r.passages;
    }
    const importMs = performance.now() - started;
    const embedStarted = performance.now();
    const embedding = body.embedWith
      ? createKnowledgeServices(c.env, {
          ...settings,
          knowledge: {
            ...settings.knowledge,
            embeddings: { ...settings.knowledge.embeddings, read: null, write: [body.embedWith] },
          },
        })
      : kb;
    if (body.embedWith && embedding.writes.length === 0)
      return problem(c, { kind: "not-found", what: `embeddings model ${body.embedWith}` });
    const reports = body.embed ? await embedding.refresh(100_000) : [];
    return c.json({ passages, importMs, embedMs: performance.now() - embedStarted, reports });
  })
  .post("/kb-search", jsonBody(SearchSchema), async (c) => {
    const body = c.req.valid("json");
    const settings = await loadSettings(c.env);
    const times: StatementTimes = new Map();
    const rows: StatementRows = new Map();
    const busy: D1Busy = { ms: 0, trips: 0, rowsRead: 0 };
    const env = body.mode === "profile" ? { ...c.env, DB: timingD1(c.env.DB, times, busy, rows) } : c.env;
    const kb = createKnowledgeServices(env, settings);
    const keywords = kb.retrieval.keywords;
    const latencies: number[] = [];
    // Profile: per query, the time with a D1 round trip in flight and the round trips made.
    const d1: number[] = [];
    const trips: number[] = [];
    const rowsRead: number[] = [];
    let hits = 0;
    for (const spec of body.queries) {
      const doc = Math.floor(spec.passage / 10);
      const text = syntheticPassage(doc * 1000 + (spec.passage % 10));
      const start = (spec.passage * 7) % Math.max(1, text.length - spec.length);
      const query = text.slice(start, start + spec.length);
      const started = performance.now();
      const before = { ...busy };
      if (body.mode === "fts") {
        const found = await keywords.search({
          scopes: [collectionScope(body.collection)],
          nodeTypes: ["passage"],
          text: query,
          limit: 10,
        });
        hits += found.length;
      } else {
        const found = await searchKnowledge(kb.retrieval, {
          query,
          collections: [body.collection],
          options: profileOptions(settings.knowledge.search),
        });
        hits += found.items.length;
      }
      latencies.push(performance.now() - started);
      d1.push(busy.ms - before.ms);
      trips.push(busy.trips - before.trips);
      rowsRead.push(busy.rowsRead - before.rowsRead);
    }
    const statements = [...times].map(([sql, ms]) => ({
      sql,
      calls: ms.length,
      rows_read: rows.get(sql) ?? 0,
      total_ms: Math.round(ms.reduce((a, b) => a + b, 0)),
      mean_ms: Math.round((ms.reduce((a, b) => a + b, 0) / ms.length) * 10) / 10,
    }));
    statements.sort((a, b) => b.total_ms - a.total_ms);
    return c.json({
      latencies,
      hits,
      ...(body.mode === "profile"
        ? { statements, split: await split(c.env.DB, latencies, d1, trips, rowsRead) }
        : {}),
    });
  });

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : (s[Math.floor((s.length - 1) / 2)] ?? 0);
};
const ms = (x: number) => Math.round(x * 10) / 10;

/**
 * Medians per query of the wall time, the time with D1 in flight, the rest (the pipeline's
 * own work in the isolate), the round trips and the rows D1 read; beside them the wall time of one trivial
 * round trip (`SELECT 1`), the floor every round trip pays whatever its SQL.
 */
async function split(db: D1Database, latencies: number[], d1: number[], trips: number[], rowsRead: number[]) {
  const probe: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    await db.prepare("SELECT 1").first();
    probe.push(performance.now() - started);
  }
  return {
    wall_p50_ms: ms(median(latencies)),
    d1_in_flight_p50_ms: ms(median(d1)),
    outside_d1_p50_ms: ms(median(latencies.map((l, i) => l - (d1[i] ?? 0)))),
    round_trips_p50: median(trips),
    rows_read_p50: median(rowsRead),
    select_1_p50_ms: ms(median(probe)),
  };
}
