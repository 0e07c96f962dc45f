/**
 * Local-only routes for the memory recall evaluation (`npm run eval -- memory`), mounted under
 * /dev/eval/memory. Items are written through the production memory commit into one private
 * chat's scope, embedded by the same refresh as the knowledge base (/dev/eval/refresh), and each
 * question is answered by `recallMemory` — the code automatic recall, `memory_search` and the
 * context preview run — with the turn scopes production derives for that private chat. The
 * baseline is plain FTS5 bm25 over the same items' raw text (/dev/eval/baseline-index with
 * `nodeType: "memory"`, searched by /dev/eval/search in baseline mode).
 */
import { Hono } from "hono";
import { z } from "zod";
import { createKnowledgeServices } from "../../composition/common/knowledge-services";
import { memoryStore } from "../../composition/dev/dev-adapters";
import { loadSettings } from "../../composition/settings/settings-loader";
import { fusionWeights } from "../../domain/knowledge/fusion-weights";
import { memoryNodeId, type NewMemory } from "../../domain/memory/memory";
import { recallMemory } from "../../domain/memory/recall";
import { turnScopes } from "../../domain/memory/scope";
import type { AppEnv } from "../app-env";
import { jsonBody } from "../json-body";

/** A private chat key (the recall reads that chat's scope with every sensitivity level). */
const PRIVATE_CHAT = /^qq:private:[A-Za-z0-9_-]+$/;

const ItemsSchema = z.object({
  chat: z.string().regex(PRIVATE_CHAT),
  items: z
    .array(z.object({ id: z.string().min(1), text: z.string().min(1), at: z.number().int() }))
    .min(1)
    .max(500),
});

const RecallSchema = z.object({
  limit: z.number().int().min(1).max(50),
  /** Overrides the read model's fusion weight (0 = the lexical-only pipeline). */
  vectorWeight: z.number().min(0).max(5).optional(),
  /** false: recall without the age decay of `memory.decay` (the same-run baseline); absent = as set. */
  decay: z.boolean().optional(),
  queries: z
    .array(
      z.object({ id: z.string(), text: z.string(), chat: z.string().regex(PRIVATE_CHAT), now: z.number() }),
    )
    .max(200),
});

export const evalMemoryRoutes = new Hono<AppEnv>()
  .post("/items", jsonBody(ItemsSchema), async (c) => {
    const { chat, items } = c.req.valid("json");
    const scope = { type: "chat" as const, id: chat };
    const inserts: NewMemory[] = items.map((it) => ({
      nodeId: memoryNodeId("eval", chat, it.id),
      scope,
      kind: "fact",
      text: it.text,
      importance: 0.5,
      confidence: 1,
      sensitivity: "public",
      sensitivitySource: "default",
      portable: true,
      subjectKey: null,
      evidence: {
        session: chat,
        messageIds: [it.id],
        account: null,
        person: null,
        origin: "dream",
        runId: "eval",
      },
    }));
    const store = memoryStore(c.env);
    const report = await store.commit({
      runId: `eval:${chat}`,
      chatKey: chat,
      at: Math.max(...items.map((it) => it.at)),
      writable: [scope],
      inserts,
      supersede: [],
      archive: [],
      updates: [],
      candidates: [],
    });
    if (!report.ok) return c.json({ error: report.error }, 409);
    return c.json({ inserted: report.value.inserted, ids: inserts.map((m, i) => [items[i]?.id, m.nodeId]) });
  })
  .post("/recall", jsonBody(RecallSchema), async (c) => {
    const body = c.req.valid("json");
    const settings = await loadSettings(c.env);
    const kb = createKnowledgeServices(c.env, settings);
    const vectors =
      typeof body.vectorWeight === "number"
        ? { ...kb.retrieval, vectorWeight: body.vectorWeight }
        : { ...kb.retrieval, vectorWeight: fusionWeights(settings.knowledge).memory };
    const index = memoryStore(c.env);
    const cfg = settings.memory.retrieval;
    const results = [];
    for (const q of body.queries) {
      const recalled = await recallMemory(
        { index, vectors },
        {
          text: q.text,
          scopes: turnScopes({ session: q.chat, identity: null }),
          soft: cfg.softScope,
          limit: body.limit,
          now: q.now,
          halfLifeDays: cfg.recencyHalfLifeDays,
          ...(body.decay === false ? {} : { decay: settings.memory.decay }),
          timeZone: settings.calendar.timeZone,
        },
      );
      results.push({ id: q.id, items: recalled.map((r) => ({ node_id: r.item.nodeId, score: r.score })) });
    }
    return c.json({ results });
  });
