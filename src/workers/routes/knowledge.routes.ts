/**
 * Admin API of the knowledge base and the embeddings cache (mounted under /api, so admin
 * auth applies). Import takes multipart `files` (up to 20, each up to 25 MiB) and answers
 * one result per file; the good files of a batch stay imported whatever happens to others.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { SourceFile } from "../../domain/knowledge/document";
import { IMPORT_LIMITS } from "../../domain/knowledge/import-documents";
import type { ReadMode } from "../../domain/knowledge/knowledge-search";
import { visibleText } from "../../domain/text/visible-text";
import { CreateCollectionBody, KnowledgeSearchBody } from "../admin-input/knowledge-input";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { jsonBody } from "../json-body";

/** The platform caps request bodies at 100 MB on most plans; larger batches must be split. */
const MAX_REQUEST_BYTES = 100 * 1024 * 1024;

const RetireSchema = z.object({ model: z.string().regex(/^[^@\s]+@[^@\s]+$/, "model@version") }).strict();

const RebuildSchema = z
  .object({
    limit: z.number().int().min(1).max(20_000).optional(),
    /** Forget what the external index holds for the maintained models, so every vector is upserted again. */
    resync: z.boolean().optional(),
  })
  .strict();

export const knowledgeRoutes = new Hono<AppEnv>()
  .get("/kb/collections", async (c) =>
    c.json({ collections: await c.get("services").knowledge.collections() }),
  )
  .post("/kb/collections", jsonBody(CreateCollectionBody), async (c) => {
    const made = await c.get("services").knowledge.createCollection(c.req.valid("json"));
    if (!made.ok) return problem(c, made.error);
    return c.json(made.value, made.value.created ? 201 : 200);
  })
  .get("/kb/collections/:name", async (c) => {
    const found = await c.get("services").knowledge.collection(c.req.param("name"));
    if (!found) return problem(c, { kind: "not-found", what: `collection ${c.req.param("name")}` });
    return c.json(found);
  })
  .delete("/kb/collections/:name", async (c) => {
    const nodes = await c.get("services").knowledge.removeCollection(c.req.param("name"));
    if (nodes === null) return problem(c, { kind: "not-found", what: `collection ${c.req.param("name")}` });
    return c.json({ deleted: c.req.param("name"), nodes });
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
    const imported = await c.get("services").knowledge.importFiles(c.req.param("name"), files);
    if (!imported.ok) return problem(c, imported.error);
    const { results, failed, embeddings } = imported.value;
    return c.json(
      { collection: c.req.param("name"), results, failed, embeddings },
      failed === results.length ? 422 : 200,
    );
  })
  .delete("/kb/collections/:name/documents", async (c) => {
    // Stored names are visible text (import-documents.ts); a name copied with its controls still finds its document.
    const source = visibleText(c.req.query("source") ?? "");
    if (!source)
      return problem(c, {
        kind: "invalid",
        field: "source",
        reason: "is required (the file name it was imported as)",
      });
    const nodes = await c.get("services").knowledge.removeDocument(c.req.param("name"), source);
    if (nodes === null) return problem(c, { kind: "not-found", what: `document ${source}` });
    return c.json({ deleted: source, nodes });
  })
  .post("/kb/search", jsonBody(KnowledgeSearchBody), async (c) =>
    c.json(await c.get("services").knowledge.search(c.req.valid("json"))),
  )
  .get("/kb/nodes/:id", async (c) => {
    const mode = (c.req.query("mode") ?? "subtree") as ReadMode;
    if (!["subtree", "children", "parents"].includes(mode))
      return problem(c, { kind: "invalid", field: "mode", reason: "must be subtree, children or parents" });
    const read = await c.get("services").knowledge.readNode(c.req.param("id"), mode);
    if (!read) return problem(c, { kind: "not-found", what: `node ${c.req.param("id")}` });
    return c.json(read);
  })
  .get("/embeddings/status", async (c) => c.json(await c.get("services").knowledge.embeddingsStatus()))
  .post("/embeddings/retire", jsonBody(RetireSchema), async (c) => {
    const retired = await c.get("services").knowledge.retire(c.req.valid("json").model);
    return retired.ok ? c.json(retired.value) : problem(c, retired.error);
  })
  .post("/embeddings/rebuild", jsonBody(RebuildSchema), async (c) => {
    const body = c.req.valid("json");
    return c.json(await c.get("services").knowledge.rebuild(body.limit ?? 2000, body.resync ?? false));
  });
