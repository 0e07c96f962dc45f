// `npm run embeddings:serve [-- --port 8788] [--host 127.0.0.1] [--threads 1] [--vector-cache <file>]`: the local
// embedding service (server.mjs) over the cached, verified bge-small-zh-v1.5 (fetch it first:
// `npm run model:fetch`). `npm start` runs it beside the Worker; a self-hoster can run it on
// its own and point `knowledge.embeddings.models.<key>.baseUrl` at `http://<host>:<port>/v1`.
// --vector-cache keeps every vector computed in a file and answers texts seen before from it
// (vector-cache.mjs); the eval uses it so a sweep embeds its corpus once.
//
// It stops on SIGINT or SIGTERM after answering the requests it has accepted, and with
// --exit-with-stdin also when its standard input closes: `npm start` holds that pipe, so the
// service never outlives the Worker beside it, even when `npm start` itself is killed.
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { verifiedModel } from "./cache.mjs";
import { loadEmbedder } from "./embedder.mjs";
import { BGE_SMALL_ZH } from "./pinned.mjs";
import { createEmbeddingServer } from "./server.mjs";
import { withVectorCache } from "./vector-cache.mjs";

export const DEFAULT_EMBEDDINGS_PORT = 8788;

/** Loads the model, listens, and resolves with the server and a stop function. */
export async function serve({
  port,
  host = "127.0.0.1",
  threads = 1,
  spec = BGE_SMALL_ZH,
  log = console.log,
  vectorCache = null,
}) {
  const paths = await verifiedModel(spec);
  const model = await loadEmbedder(spec, paths, { threads });
  const embedder = vectorCache ? withVectorCache(model, vectorCache) : model;
  const server = createEmbeddingServer({ embedder, servedAs: spec.servedAs, log });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  let stopping = null;
  const stop = () => {
    stopping ??= new Promise((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    }).then(() => embedder.close());
    return stopping;
  };
  return { server, stop, url: `http://${host}:${server.address().port}/v1` };
}

async function main(args) {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: "string", default: process.env.EMBEDDINGS_PORT ?? String(DEFAULT_EMBEDDINGS_PORT) },
      host: { type: "string", default: "127.0.0.1" },
      threads: { type: "string", default: process.env.EMBEDDINGS_THREADS ?? "1" },
      "exit-with-stdin": { type: "boolean", default: false },
      "vector-cache": { type: "string" },
    },
    strict: true,
  });
  const port = Number(values.port);
  const threads = Number(values.threads);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be a port, got ${values.port}`);
  if (!Number.isInteger(threads) || threads < 1 || threads > 64)
    throw new Error(`--threads must be an integer from 1 to 64, got ${values.threads}`);
  const { stop, url } = await serve({
    port,
    host: values.host,
    threads,
    vectorCache: values["vector-cache"],
  });
  console.log(`embedding service: ${BGE_SMALL_ZH.servedAs} (${BGE_SMALL_ZH.dims} dimensions) on ${url}`);
  const exit = () => stop().then(() => process.exit(0));
  process.on("SIGINT", exit);
  process.on("SIGTERM", exit);
  if (values["exit-with-stdin"]) {
    process.stdin.on("end", exit);
    process.stdin.on("close", exit);
    process.stdin.resume();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}
