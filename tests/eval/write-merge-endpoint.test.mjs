// `npm run eval -- write-merge --embed-url … --pairs-only` against a stand-in OpenAI-compatible
// embeddings server on loopback: the pairs are embedded there in batches with the key as a bearer
// token, judged at the dev midpoint, and the owner is told the settings path and command; a
// refusal names the HTTP status and the endpoint's message, and the key is never printed.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import path from "node:path";
import { after, before, describe, it } from "node:test";

const script = path.join(import.meta.dirname, "..", "..", "scripts", "eval", "run.mjs");
const PORT = 8870;
const KEY = "sk-stand-in-7f3a9c";
const DIMS = 48;

/** A character-bag vector (not unit length: the harness normalises). */
function bag(text) {
  const v = new Array(DIMS).fill(0);
  for (const ch of text) v[(ch.codePointAt(0) ?? 0) % DIMS] += 1;
  return v;
}

const seen = { batches: [], auth: new Set() };

const server = createServer((req, res) => {
  let body = "";
  req.on("data", (d) => (body += d));
  req.on("end", () => {
    const send = (status, json) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(json));
    };
    if (req.method !== "POST" || !req.url.endsWith("/v1/embeddings")) return send(404, { error: "no route" });
    const auth = req.headers.authorization ?? "";
    if (req.url.startsWith("/denied/"))
      return send(401, { error: { message: `Invalid API token: ${auth.replace("Bearer ", "")}` } });
    const { model, input } = JSON.parse(body);
    seen.auth.add(auth);
    seen.batches.push(input.length);
    // Answered in reverse order: the harness must place them by `index`.
    const data = input.map((t, index) => ({ object: "embedding", index, embedding: bag(t) })).reverse();
    send(200, { object: "list", model, data });
  });
});

/** Runs the eval in a child process (the server answers in this one) and collects its output. */
function evalRun(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, "write-merge", ...args], {
      env: { ...process.env, EMBEDDING_API_KEY: KEY },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** The pairs-only run against the stand-in's bag-48 model at `route` (ok or denied). */
const standIn = (route, ...more) => [
  "--embed-url",
  `http://127.0.0.1:${PORT}/${route}/v1`,
  "--embed-model",
  "@cf/stand-in/bag-48",
  ...more,
  "--pairs-only",
];

describe("write-merge against an OpenAI-compatible endpoint", () => {
  before(() => new Promise((resolve) => server.listen(PORT, "127.0.0.1", resolve)));
  after(() => new Promise((resolve) => server.close(resolve)));

  it("measures the model's threshold on the pairs and says where it goes", async () => {
    const run = await evalRun(standIn("ok", "--embed-dims", String(DIMS)));
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.vectors, "@cf/stand-in/bag-48");
    assert.equal(report.replay, undefined);
    const midpoint = report.dev_sweep.cosine_midpoint;
    assert.equal(typeof midpoint, "number");
    assert.equal(report.thresholds.cosine, midpoint);
    assert.equal(report.pairs.dev.detector.wrong_merges, 0, "the midpoint merges no dev pair wrongly");
    const held = report.pairs.held.detector;
    assert.equal(held.pairs, 30);
    assert.deepEqual([seen.auth.size, [...seen.auth][0]], [1, `Bearer ${KEY}`]);
    assert.ok(seen.batches.length > 1 && seen.batches.every((n) => n <= 32), `batches ${seen.batches}`);
    const hint = run.stderr.trim().split("\n").at(-1);
    assert.match(
      hint,
      new RegExp(`held：同义 ${held.merged_same}/${held.of_same} 合并，误合并 ${held.wrong_merges}`),
    );
    assert.ok(
      hint.includes(
        `npm run akasha -- settings set knowledge.embeddings.models.bag-48.restatementCosine ${midpoint}`,
      ),
      hint,
    );
  });

  it("a refusal names the status and the endpoint's message, never the key", async () => {
    const run = await evalRun(standIn("denied"));
    assert.equal(run.status, 1);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /HTTP 401/);
    assert.match(run.stderr, /Invalid API token/);
    assert.match(run.stderr, /\/denied\/v1\/embeddings/);
    assert.ok(!`${run.stdout}${run.stderr}`.includes(KEY), run.stderr);
    assert.doesNotMatch(run.stderr, /at .*\.mjs:\d+/, "no stack trace");
  });

  it("refuses --embed-url without --embed-model", async () => {
    const run = await evalRun(["--embed-url", `http://127.0.0.1:${PORT}/ok/v1`, "--pairs-only"]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /--embed-model/);
  });
});
