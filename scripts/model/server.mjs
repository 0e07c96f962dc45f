// The local embedding service: OpenAI's `POST /v1/embeddings` over one embedder, as the
// Worker's `openai-compatible` embeddings provider (src/adapters/openai/) calls it, and any
// client of that API can. Also `GET /v1/models` and `GET /healthz`.
//
// Requests are validated before anything runs; a bad one gets 400 (404 for another model, 413
// for a body above the cap) with OpenAI's error shape `{error: {message, type, param, code}}`
// and embeds nothing. Embedding runs one request at a time, in arrival order: the model already
// uses the cores it is given, and a queue keeps a burst from multiplying memory.
import http from "node:http";
import { z } from "zod";

const MAX_BODY_BYTES = 8 * 1024 * 1024;
const MAX_INPUTS = 256;

const RequestSchema = z.object({
  model: z.string({ error: "model is required" }).min(1, "model is required"),
  input: z.union(
    [
      z.string(),
      z.array(z.string(), { error: "input must be a string or an array of strings" }).min(1).max(MAX_INPUTS),
    ],
    { error: "input must be a string or an array of strings (token arrays are not supported)" },
  ),
  encoding_format: z.enum(["float", "base64"]).optional(),
  dimensions: z.number().int().positive().optional(),
  user: z.string().optional(),
});

class HttpError extends Error {
  constructor(status, message, { param = null, code = null, type = "invalid_request_error" } = {}) {
    super(message);
    this.status = status;
    this.body = { error: { message, type, param, code } };
  }
}

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** The body as JSON. One above the cap is read to its end, unkept, so the client hears the 413. */
async function readJson(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES)
    throw new HttpError(413, `request body above ${MAX_BODY_BYTES} bytes`, { code: "body_too_large" });
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new HttpError(400, "request body is not valid JSON", { code: "invalid_json" });
  }
}

function parseRequest(body, { servedAs, dims }) {
  const parsed = RequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpError(400, issue.message, { param: issue.path.join(".") || null });
  }
  const request = parsed.data;
  if (request.model !== servedAs)
    throw new HttpError(
      404,
      `The model '${request.model}' does not exist; this service serves '${servedAs}'`,
      {
        param: "model",
        code: "model_not_found",
      },
    );
  if (request.dimensions !== undefined && request.dimensions !== dims)
    throw new HttpError(400, `dimensions must be ${dims} for ${servedAs}`, { param: "dimensions" });
  return request;
}

function encodeVector(vector, format) {
  if (format !== "base64") return vector;
  return Buffer.from(new Float32Array(vector).buffer).toString("base64");
}

/** A queue of one: each task starts when the one before it has settled. */
function serial() {
  let tail = Promise.resolve();
  return (task) => {
    const result = tail.then(task);
    tail = result.catch(() => {});
    return result;
  };
}

/**
 * An http.Server answering the API over `embedder` (embedder.mjs `loadEmbedder`, or any object
 * with `dims` and `embed(texts) → {vectors, tokens}`). `servedAs` is the model name it answers to.
 */
export function createEmbeddingServer({ embedder, servedAs, log = () => {} }) {
  const queue = serial();
  const spec = { servedAs, dims: embedder.dims };

  async function embeddings(req, res) {
    const request = parseRequest(await readJson(req), spec);
    const texts = typeof request.input === "string" ? [request.input] : request.input;
    const { vectors, tokens } = await queue(() => embedder.embed(texts));
    send(res, 200, {
      object: "list",
      data: vectors.map((v, index) => ({
        object: "embedding",
        index,
        embedding: encodeVector(v, request.encoding_format),
      })),
      model: servedAs,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  async function handle(req, res) {
    const url = new URL(req.url ?? "/", "http://localhost");
    const route = `${req.method} ${url.pathname.replace(/\/+$/, "")}`;
    if (route === "POST /v1/embeddings") return embeddings(req, res);
    if (route === "GET /v1/models")
      return send(res, 200, {
        object: "list",
        data: [{ id: servedAs, object: "model", owned_by: "akasha" }],
      });
    if (route === "GET /healthz") return send(res, 200, { ok: true, model: servedAs, dims: spec.dims });
    if (["/v1/embeddings", "/v1/models", "/healthz"].includes(url.pathname))
      throw new HttpError(405, `${req.method} is not allowed on ${url.pathname}`, {
        code: "method_not_allowed",
      });
    throw new HttpError(404, `no route ${req.method} ${url.pathname}`, { code: "not_found" });
  }

  return http.createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (e instanceof HttpError) return send(res, e.status, e.body);
      log(`embedding failed: ${e?.stack ?? e}`);
      send(res, 500, {
        error: { message: "embedding failed", type: "server_error", param: null, code: null },
      });
    });
  });
}

export const LIMITS = { MAX_BODY_BYTES, MAX_INPUTS };
