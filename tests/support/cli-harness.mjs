// The owner's CLI run inside the test process, and a stand-in admin API for it to talk to: the
// CLI tests share these so that each file says only what its commands send and answer.
import { createServer } from "node:http";
import { after, before } from "node:test";
import { main } from "../../scripts/akasha.mjs";

/**
 * Runs the CLI with argv, capturing what it prints; returns { code, out, err }. `env` is laid
 * over process.env for the run (a key set to undefined is unset) and everything is put back.
 */
export async function runCli(argv, env = {}) {
  const saved = {
    log: console.log,
    error: console.error,
    write: process.stderr.write,
    env: { ...process.env },
  };
  let out = "";
  let err = "";
  console.log = (...a) => (out += `${a.join(" ")}\n`);
  console.error = (...a) => (err += `${a.join(" ")}\n`);
  process.stderr.write = (chunk) => {
    err += String(chunk);
    return true;
  };
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  process.exitCode = undefined;
  try {
    const code = await main(argv);
    return { code, out, err };
  } finally {
    console.log = saved.log;
    console.error = saved.error;
    process.stderr.write = saved.write;
    process.env = saved.env;
    process.exitCode = undefined;
  }
}

/**
 * A JSON server on a free local port for the test file's run. `answer(req, url, body)` gives
 * [status, json] (body is the raw text); `base` is the address once the file's tests start.
 */
export function standInServer(answer) {
  const stand = { base: "" };
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    const [status, json] = await answer(req, new URL(req.url, "http://x"), body);
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(json));
  });
  before(async () => {
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    stand.base = `http://127.0.0.1:${server.address().port}`;
  });
  after(() => server.close());
  return stand;
}

/**
 * A stand-in admin API that answers from `routes` ("METHOD /path" → [status, json], or a
 * function of the parsed body and the URL giving that, for a stand-in that keeps state or pages)
 * and keeps in `seen` what `record(req, url, parsedBody)` makes of each request.
 */
export function routedApi(record) {
  const api = standInServer((req, url, body) => {
    const parsed = body ? JSON.parse(body) : undefined;
    api.seen.push(record(req, url, parsed));
    const route = api.routes[`${req.method} ${url.pathname}`] ?? [
      404,
      { error: "not-found", what: url.pathname },
    ];
    return typeof route === "function" ? route(parsed, url) : route;
  });
  api.routes = {};
  api.seen = [];
  return api;
}
