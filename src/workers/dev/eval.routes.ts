/**
 * Local-only routes used by `npm run eval` (mounted under /dev, so they do not exist outside
 * local mode). They drive the production code — import, conversation planning, the D1
 * indexes, the embeddings cache and the retrieval pipeline — inside workerd, and add the
 * evaluation baseline: plain FTS5 bm25 over the units' raw text, without any context.
 */
import { Hono } from "hono";
import { z } from "zod";
import { createKnowledgeServices } from "../../composition/common/knowledge-services";
import { jsonChunks, nodeWrites, paragraphs } from "../../composition/dev/dev-adapters";
import { loadSettings } from "../../composition/settings/settings-loader";
import { planConversation } from "../../domain/history/conversation-plan";
import { HISTORY_RETRIEVAL_OPTIONS } from "../../domain/history/history-retrieval-profile";
import { ok } from "../../domain/kernel/result";
import { importFile } from "../../domain/knowledge/import-documents";
import { profileOptions } from "../../domain/knowledge/knowledge-search";
import { NODE_TYPES } from "../../domain/retrieval/context-node";
import {
  DEFAULT_RETRIEVAL_OPTIONS,
  type RetrievalOverrides,
  unknownOptions,
  withOverrides,
} from "../../domain/retrieval/retrieval-options";
import { retrieve } from "../../domain/retrieval/retrieve";
import { parseScopeKey, type ScopeKey } from "../../domain/retrieval/scope-key";
import { matchExpression } from "../../domain/text/fts-query";
import { indexText, queryTokens } from "../../domain/text/search-tokens";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { jsonBody } from "../json-body";

const DocumentsSchema = z.object({
  collection: z.string(),
  chunkSize: z.number().int().min(50).max(8000),
  chunkOverlap: z.number().int().min(0).default(40),
  documents: z
    .array(z.object({ source: z.string(), title: z.string().nullable(), text: z.string() }))
    .max(500),
});

const ConversationSchema = z.object({
  chat: z.string(),
  sessions: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      turns: z.array(
        z.object({
          id: z.string(),
          speaker: z.string(),
          text: z.string(),
          attachment: z.string().optional(),
        }),
      ),
    }),
  ),
});

const SearchSchema = z.object({
  mode: z.enum(["pipeline", "baseline"]),
  limit: z.number().int().min(1).max(100),
  nodeTypes: z.array(z.enum(NODE_TYPES)).default(["passage"]),
  profile: z.enum(["search", "history"]).default("search"),
  options: z.record(z.string(), z.unknown()).default({}),
  /** Overrides the read model's fusion weight (experiments: --vector-weight). */
  vectorWeight: z.number().min(0).max(5).optional(),
  queries: z
    .array(z.object({ id: z.string(), text: z.string(), scopes: z.array(z.string()).min(1) }))
    .max(200),
});

const BaselineIndexSchema = z.object({
  scopes: z.array(z.string()).min(1),
  /** The units indexed: passages (documents, conversations) or memory items. */
  nodeType: z.enum(["passage", "memory"]).default("passage"),
});

const BASELINE_DDL =
  "CREATE VIRTUAL TABLE IF NOT EXISTS eval_baseline_fts USING fts5(tokens, node_id UNINDEXED, scope UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2')";

export const evalRoutes = new Hono<AppEnv>()
  .post("/documents", jsonBody(DocumentsSchema), async (c) => {
    const body = c.req.valid("json");
    const settings = await loadSettings(c.env);
    const kb = createKnowledgeServices(c.env, settings);
    await kb.store.createCollection(
      {
        name: body.collection,
        title: null,
        description: null,
        chunkSize: body.chunkSize,
        chunkOverlap: body.chunkOverlap,
      },
      Date.now(),
    );
    const collection = await kb.store.getCollection(body.collection);
    if (!collection) return problem(c, { kind: "not-found", what: `collection ${body.collection}` });
    const titles = new Map(body.documents.map((d) => [d.source, d]));
    // The eval's documents arrive as text with a title of their own (cmrc2018 `title`, kdconv
    // entity names) instead of as files: convert exactly like a .txt or .md file, keep that title.
    const deps = {
      ...kb.importDeps,
      converter: {
        async convert(
          format: "markdown" | "text" | "html" | "pdf" | "docx" | "csv" | "json",
          file: { name: string; bytes: Uint8Array },
        ) {
          const doc = titles.get(file.name);
          if (format === "markdown") return kb.importDeps.converter.convert(format, file);
          return ok({
            title: doc?.title ?? null,
            aliases: [],
            blocks: paragraphs(doc?.text ?? "").map((p) => ({
              kind: "text" as const,
              text: p,
              role: "paragraph" as const,
            })),
          });
        },
      },
    };
    const encoder = new TextEncoder();
    const started = performance.now();
    const results = [];
    for (const d of body.documents) {
      results.push(await importFile(deps, collection, { name: d.source, bytes: encoder.encode(d.text) }));
    }
    return c.json({
      ms: performance.now() - started,
      passages: results.reduce((n, r) => n + (r.status === "failed" ? 0 : r.passages), 0),
      failed: results.filter((r) => r.status === "failed"),
    });
  })
  .post("/conversation", jsonBody(ConversationSchema), async (c) => {
    const body = c.req.valid("json");
    const plan = planConversation(body.chat, body.sessions);
    const now = Date.now();
    await c.env.DB.batch([
      ...nodeWrites.nodes(c.env.DB, plan.nodes, now),
      ...nodeWrites.edges(c.env.DB, plan.edges, now),
    ]);
    return c.json({ nodes: plan.nodes.length });
  })
  .post("/refresh", jsonBody(z.object({ limit: z.number().int().min(1).max(20_000) })), async (c) => {
    const { limit } = c.req.valid("json");
    const kb = createKnowledgeServices(c.env, await loadSettings(c.env));
    const started = performance.now();
    const reports = await kb.refresh(limit);
    return c.json({ ms: performance.now() - started, reports });
  })
  .post("/baseline-index", jsonBody(BaselineIndexSchema), async (c) => {
    const { scopes, nodeType } = c.req.valid("json");
    await c.env.DB.prepare(BASELINE_DDL).run();
    let indexed = 0;
    for (const key of scopes) {
      const scope = parseScopeKey(key);
      if (!scope) continue;
      let after = 0;
      for (;;) {
        const { results } = await c.env.DB.prepare(
          `SELECT seq, node_id, raw_text FROM nodes WHERE scope_type = ?1 AND scope_id = ?2 AND node_type = ?4
             AND status = 'active' AND seq > ?3 ORDER BY seq LIMIT 2000`,
        )
          .bind(scope.type, scope.id, after, nodeType)
          .all<{ seq: number; node_id: string; raw_text: string }>();
        if (results.length === 0) break;
        after = results.at(-1)?.seq ?? after;
        const rows = results.map((r) => [indexText(r.raw_text), r.node_id, key]);
        await c.env.DB.batch(
          jsonChunks(rows).map((chunk) =>
            c.env.DB.prepare(
              `INSERT INTO eval_baseline_fts (tokens, node_id, scope)
               SELECT value ->> '$[0]', value ->> '$[1]', value ->> '$[2]' FROM json_each(?1)`,
            ).bind(chunk),
          ),
        );
        indexed += results.length;
      }
    }
    return c.json({ indexed });
  })
  .post("/search", jsonBody(SearchSchema), async (c) => {
    const body = c.req.valid("json");
    const unknown = unknownOptions(body.options);
    if (unknown.length > 0)
      return problem(c, {
        kind: "invalid",
        field: "options",
        reason: `names no option: ${unknown.join(", ")}`,
      });
    const settings = await loadSettings(c.env);
    const kb = createKnowledgeServices(c.env, settings);
    const options = withOverrides(
      profileOptions(settings.knowledge.search),
      // The conversation trees: the KB profile with history's expansion, and the defaults' ranking
      // (the hint list, no floor) in place of the KB profile's fielded scoring.
      ...(body.profile === "history"
        ? [
            HISTORY_RETRIEVAL_OPTIONS,
            {
              fields: { headingWeight: DEFAULT_RETRIEVAL_OPTIONS.fields.headingWeight },
              coverage: { relevanceFloor: DEFAULT_RETRIEVAL_OPTIONS.coverage.relevanceFloor },
            },
          ]
        : []),
      { pack: { tokenBudget: 1_000_000 } },
      body.options as RetrievalOverrides,
      { limit: body.limit },
    );
    const started = performance.now();
    const out = [];
    for (const q of body.queries) {
      if (body.mode === "baseline") {
        const match = matchExpression(queryTokens(q.text, 64));
        const { results } = match
          ? await c.env.DB.prepare(
              `SELECT b.node_id, n.raw_text, n.source_id, n.metadata FROM eval_baseline_fts b
               JOIN nodes n ON n.node_id = b.node_id
               WHERE eval_baseline_fts MATCH ?1 AND b.scope IN (SELECT value FROM json_each(?2))
               ORDER BY bm25(eval_baseline_fts) LIMIT ?3`,
            )
              .bind(`tokens : (${match})`, JSON.stringify(q.scopes), body.limit)
              .all<{ node_id: string; raw_text: string; source_id: string; metadata: string }>()
          : { results: [] };
        out.push({ id: q.id, items: results.map((r) => ({ ...r, via: "hit" })) });
        continue;
      }
      const deps =
        typeof body.vectorWeight === "number"
          ? { ...kb.retrieval, vectorWeight: body.vectorWeight }
          : kb.retrieval;
      const result = await retrieve(deps, {
        query: q.text,
        filter: { scopes: q.scopes as ScopeKey[], nodeTypes: body.nodeTypes },
        options,
      });
      out.push({
        id: q.id,
        strategy: result.strategy,
        items: result.items.map((it) => ({
          node_id: it.node.nodeId,
          raw_text: it.text,
          source_id: it.node.sourceId,
          metadata: JSON.stringify(it.node.metadata),
          via: it.via,
        })),
      });
    }
    return c.json({ ms: performance.now() - started, results: out });
  })
  .post("/stats", jsonBody(z.object({ collection: z.string() })), async (c) => {
    const { collection } = c.req.valid("json");
    const { results } = await c.env.DB.prepare(
      `SELECT node_type, count(*) AS n, max(length(raw_text)) AS max_len, avg(length(raw_text)) AS mean_len,
              sum(CASE WHEN json_array_length(path) >= 2 THEN 1 ELSE 0 END) AS deep
       FROM nodes WHERE scope_type = 'collection' AND scope_id = ?1 AND status = 'active' GROUP BY node_type`,
    )
      .bind(collection)
      .all<{ node_type: string; n: number; max_len: number; mean_len: number; deep: number }>();
    return c.json({ stats: results });
  });
