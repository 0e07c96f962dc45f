/**
 * Admin API of the knowledge base and the embeddings cache (mounted under /api, so admin
 * auth applies). Import takes multipart `files` (up to 20, each up to 25 MiB) and answers
 * one result per file; the good files of a batch stay imported whatever happens to others.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { auditLog } from "../../composition/admin-services";
import { apiSearchQuery } from "../../composition/api-query-rewrite";
import { createKnowledgeServices } from "../../composition/knowledge-services";
import { loadSettings } from "../../composition/settings-source";
import { CHUNK_SIZE_RANGE, validateCollectionName } from "../../domain/knowledge/collection";
import type { SourceFile } from "../../domain/knowledge/document";
import { IMPORT_LIMITS, importFiles } from "../../domain/knowledge/import-documents";
import {
  profileOptions,
  type ReadMode,
  readContext,
  searchKnowledge,
} from "../../domain/knowledge/knowledge-search";
import { modelKey } from "../../domain/retrieval/ports";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { jsonBody } from "../json-body";

/** The platform caps request bodies at 100 MB on most plans; larger batches must be split. */
const MAX_REQUEST_BYTES = 100 * 1024 * 1024;

const CreateSchema = z
  .object({
    name: z.string(),
    title: z.string().max(200).optional(),
    description: z.string().max(2000).optional(),
    chunkSize: z.number().int().min(CHUNK_SIZE_RANGE.min).max(CHUNK_SIZE_RANGE.max).optional(),
    chunkOverlap: z.number().int().min(0).max(2000).optional(),
  })
  .strict();

const SearchSchema = z
  .object({
    query: z.string().min(1).max(4000),
    collections: z.array(z.string()).min(1).max(100).optional(),
    limit: z.number().int().min(1).max(50).optional(),
    /** Earlier user turns of the conversation, oldest first: a follow-up query is searched after them. */
    turns: z.array(z.string().max(4000)).max(20).optional(),
  })
  .strict();

const RetireSchema = z.object({ model: z.string().regex(/^[^@\s]+@[^@\s]+$/, "model@version") }).strict();

const RebuildSchema = z
  .object({
    limit: z.number().int().min(1).max(20_000).optional(),
    /** Forget what the external index holds for the maintained models, so every vector is upserted again. */
    resync: z.boolean().optional(),
  })
  .strict();

/** Every change to the knowledge base is audited with the acting admin. */
const audit = (c: Context<AppEnv>, action: string, collection: string, detail: Record<string, unknown>) =>
  auditLog(c.env).record({
    at: Date.now(),
    actor: c.get("admin").actor,
    action,
    chatKey: null,
    target: `collection:${collection}`,
    detail,
  });

async function services(c: { env: Env }) {
  const settings = await loadSettings(c.env);
  return { settings, kb: createKnowledgeServices(c.env, settings) };
}

export const knowledgeRoutes = new Hono<AppEnv>()
  .get("/kb/collections", async (c) => {
    const { kb } = await services(c);
    return c.json({ collections: await kb.store.listCollections() });
  })
  .post("/kb/collections", jsonBody(CreateSchema), async (c) => {
    const body = c.req.valid("json");
    const name = validateCollectionName(body.name);
    if (!name.ok) return problem(c, name.error);
    const { settings, kb } = await services(c);
    const chunkSize = body.chunkSize ?? settings.knowledge.chunkSize;
    const created = await kb.store.createCollection(
      {
        name: name.value,
        title: body.title ?? null,
        description: body.description ?? null,
        chunkSize,
        chunkOverlap: Math.min(
          body.chunkOverlap ?? settings.knowledge.chunkOverlap,
          Math.floor(chunkSize / 4),
        ),
      },
      Date.now(),
    );
    const collection = await kb.store.getCollection(name.value);
    if (created) await audit(c, "kb.collection.create", name.value, {});
    return c.json({ created, collection }, created ? 201 : 200);
  })
  .get("/kb/collections/:name", async (c) => {
    const { kb } = await services(c);
    const collection = await kb.store.getCollection(c.req.param("name"));
    if (!collection) return problem(c, { kind: "not-found", what: `collection ${c.req.param("name")}` });
    return c.json({ collection, documents: await kb.store.listDocuments(collection.name) });
  })
  .delete("/kb/collections/:name", async (c) => {
    const { kb } = await services(c);
    const removed = await kb.removeCollection(c.req.param("name"));
    if (!removed) return problem(c, { kind: "not-found", what: `collection ${c.req.param("name")}` });
    await audit(c, "kb.collection.delete", c.req.param("name"), { nodes: removed.nodeIds.length });
    return c.json({ deleted: c.req.param("name"), nodes: removed.nodeIds.length });
  })
  .post("/kb/collections/:name/documents", async (c) => {
    const declared = Number(c.req.header("content-length") ?? "0");
    if (declared > MAX_REQUEST_BYTES)
      return c.json(
        { error: "too-large", reason: `split the batch: requests are limited to ${MAX_REQUEST_BYTES} bytes` },
        413,
      );
    let form: FormData;
    try {
      form = await c.req.raw.formData();
    } catch {
      return problem(c, {
        kind: "invalid",
        field: "body",
        reason: "send multipart/form-data with one or more `files` fields",
      });
    }
    const entries = [...form.getAll("files"), ...form.getAll("file")].filter(
      (f): f is File => typeof f !== "string",
    );
    if (entries.length > IMPORT_LIMITS.maxFiles)
      return problem(c, {
        kind: "invalid",
        field: "files",
        reason: `at most ${IMPORT_LIMITS.maxFiles} files per batch`,
      });
    const files: SourceFile[] = [];
    for (const f of entries) {
      // Oversized files are refused by the import without their bytes being read.
      const over = f.size > IMPORT_LIMITS.maxFileBytes;
      files.push({
        name: f.name,
        contentType: f.type || null,
        size: f.size,
        bytes: over ? new Uint8Array(0) : new Uint8Array(await f.arrayBuffer()),
      });
    }
    const { settings, kb } = await services(c);
    const result = await importFiles(kb.importDeps, c.req.param("name"), files);
    if (!result.ok) return problem(c, result.error);
    const results = result.value;
    const embeddings = results.some((r) => r.status === "imported" || r.status === "replaced")
      ? await kb
          .refresh(settings.knowledge.embeddings.refreshPerRun)
          .catch((e) => [{ model: "?", error: String(e) }])
      : [];
    const failed = results.filter((r) => r.status === "failed").length;
    await audit(c, "kb.import", c.req.param("name"), { files: results.length, failed });
    return c.json(
      { collection: c.req.param("name"), results, failed, embeddings },
      failed === results.length ? 422 : 200,
    );
  })
  .delete("/kb/collections/:name/documents", async (c) => {
    const source = c.req.query("source");
    if (!source)
      return problem(c, {
        kind: "invalid",
        field: "source",
        reason: "is required (the file name it was imported as)",
      });
    const { kb } = await services(c);
    const removed = await kb.removeDocument(c.req.param("name"), source);
    if (!removed) return problem(c, { kind: "not-found", what: `document ${source}` });
    await audit(c, "kb.document.delete", c.req.param("name"), { source, nodes: removed.nodeIds.length });
    return c.json({ deleted: source, nodes: removed.nodeIds.length });
  })
  .post("/kb/search", jsonBody(SearchSchema), async (c) => {
    const body = c.req.valid("json");
    const { settings, kb } = await services(c);
    const collections = body.collections ?? (await kb.store.listCollections()).map((x) => x.name);
    const profile = settings.knowledge.search;
    const rewritten = await apiSearchQuery(
      c.env,
      settings,
      body.query,
      (body.turns ?? []).map((text) => ({ role: "user" as const, text })),
    );
    const result = await searchKnowledge(kb.retrieval, {
      query: rewritten.query,
      collections,
      options: profileOptions({ ...profile, limit: body.limit ?? profile.limit }),
    });
    return c.json({
      strategy: result.strategy,
      query: { text: rewritten.query, via: rewritten.via },
      tokens: result.tokens,
      items: result.items.map((it) => ({
        citation: it.citation,
        via: it.via,
        score: it.score,
        coverage: it.coverage,
        title: it.node.title,
        text: it.text,
      })),
    });
  })
  .get("/kb/nodes/:id", async (c) => {
    const mode = (c.req.query("mode") ?? "subtree") as ReadMode;
    if (!["subtree", "children", "parents"].includes(mode))
      return problem(c, { kind: "invalid", field: "mode", reason: "must be subtree, children or parents" });
    const { kb } = await services(c);
    const collections = (await kb.store.listCollections()).map((x) => x.name);
    const read = await readContext(kb.retrieval.store, { nodeId: c.req.param("id"), mode, collections });
    if (!read) return problem(c, { kind: "not-found", what: `node ${c.req.param("id")}` });
    return c.json(read);
  })
  .get("/embeddings/status", async (c) => {
    const { settings, kb } = await services(c);
    const models = [];
    for (const s of kb.maintained()) {
      models.push({
        key: s.key,
        model: s.embedder.model,
        index: s.index.external ? "vectorize" : "brute-force (D1)",
        read: s.key === settings.knowledge.embeddings.read,
        ...(await kb.embeddings.status(s.embedder.model)),
      });
    }
    const inUse = new Set(kb.maintained().map((m) => modelKey(m.embedder.model)));
    const stored = (await kb.embeddings.versions()).map((v) => {
      const model = `${v.id}@${v.version}`;
      return { model, vectors: v.vectors, inUse: inUse.has(model) };
    });
    return c.json({
      read: settings.knowledge.embeddings.read,
      write: settings.knowledge.embeddings.write,
      models,
      stored,
    });
  })
  .post("/embeddings/retire", jsonBody(RetireSchema), async (c) => {
    const { model } = c.req.valid("json");
    const { kb } = await services(c);
    if (kb.maintained().some((m) => modelKey(m.embedder.model) === model))
      return problem(c, {
        kind: "invalid",
        field: "model",
        reason: `${model} is read or written by the current settings; switch away from it first`,
      });
    const at = model.lastIndexOf("@");
    const version = { id: model.slice(0, at), version: model.slice(at + 1) };
    const stored = await kb.embeddings.versions();
    if (!stored.some((v) => v.id === version.id && v.version === version.version))
      return problem(c, { kind: "not-found", what: `stored vectors of ${model}` });
    const deleted = await kb.embeddings.dropVersion(version);
    await auditLog(c.env).record({
      at: Date.now(),
      actor: c.get("admin").actor,
      action: "embeddings.retire",
      chatKey: null,
      target: `embeddings:${model}`,
      detail: { deleted },
    });
    return c.json({ model, deleted });
  })
  .post("/embeddings/rebuild", jsonBody(RebuildSchema), async (c) => {
    const body = c.req.valid("json");
    const { kb } = await services(c);
    if (body.resync) {
      for (const s of kb.maintained()) if (s.index.external) await kb.embeddings.forgetAll(s.embedder.model);
    }
    const reports = await kb.refresh(body.limit ?? 2000);
    return c.json({ reports, done: reports.every((r) => "done" in r && r.done) });
  });
