// The embedding service as a process beside the Worker: it stops when its parent's pipe closes
// (so it never outlives `npm start`), answers what it accepted before a SIGTERM ends it, is not
// started without the model, and joins the Worker's settings without overriding an owner's.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import {
  LOCAL_MODEL_KEY,
  localModelSettings,
  startLocalEmbeddings,
  withLocalModel,
} from "../../scripts/model/local-service.mjs";
import { BGE_SMALL_ZH } from "../../scripts/model/pinned.mjs";

const SERVE = path.resolve(import.meta.dirname, "../../scripts/model/serve.mjs");

/** Starts serve.mjs on a free port; resolves once it printed its URL. */
async function spawnService(args = []) {
  const child = spawn(process.execPath, [SERVE, "--port", "0", ...args], { stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  const url = await new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => {
      output += d;
      const m = /on (http:\/\/\S+\/v1)/.exec(output);
      if (m) resolve(m[1]);
    });
    child.stderr.on("data", (d) => (output += d));
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  return { child, url, exited };
}

const timeout = (ms) =>
  new Promise((_, reject) => setTimeout(() => reject(new Error(`no exit in ${ms} ms`)), ms));

describe("the embedding service beside the Worker", () => {
  it("exits when the pipe from its parent closes", async () => {
    const { child, exited } = await spawnService(["--exit-with-stdin"]);
    child.stdin.end();
    assert.deepEqual(await Promise.race([exited, timeout(20_000)]), { code: 0, signal: null });
  });

  it("answers a request it accepted before SIGTERM, then exits", async () => {
    const { child, url, exited } = await spawnService();
    const texts = Array.from(
      { length: 24 },
      (_, i) => `${i}：${"默认情况下，一个组件实例在被替换掉后会被销毁。".repeat(20)}`,
    );
    const pending = fetch(`${url}/embeddings`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: BGE_SMALL_ZH.servedAs, input: texts }),
    });
    await new Promise((r) => setTimeout(r, 300));
    child.kill("SIGTERM");
    const res = await pending;
    assert.equal(res.status, 200);
    assert.equal((await res.json()).data.length, 24);
    assert.deepEqual(await Promise.race([exited, timeout(30_000)]), { code: 0, signal: null });
  });

  it("is not started without the model, and says how to get it", async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), "akasha-no-model-"));
    const before = process.env.AKASHA_MODEL_CACHE;
    process.env.AKASHA_MODEL_CACHE = empty;
    try {
      const result = await startLocalEmbeddings({ port: 0 });
      assert.equal(result.url, undefined);
      assert.equal(result.child, undefined);
      assert.match(result.unavailable, /missing; run: npm run model:fetch/);
    } finally {
      if (before === undefined) delete process.env.AKASHA_MODEL_CACHE;
      else process.env.AKASHA_MODEL_CACHE = before;
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("starts as a child and stops with stop()", async () => {
    const service = await startLocalEmbeddings({ port: 0 });
    assert.match(service.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const health = await (await fetch(service.url.replace(/\/v1$/, "/healthz"))).json();
    assert.deepEqual(health, { ok: true, model: BGE_SMALL_ZH.servedAs, dims: 512 });
    const exited = new Promise((resolve) => service.child.once("exit", resolve));
    service.stop();
    await Promise.race([exited, timeout(20_000)]);
  });
});

describe("the local model in the Worker's settings", () => {
  const URL = "http://127.0.0.1:8788/v1";

  it("is added and made the read and write model when the owner chose none", () => {
    const config = JSON.parse(withLocalModel("", URL));
    assert.deepEqual(config.knowledge.embeddings, {
      models: { [LOCAL_MODEL_KEY]: localModelSettings(URL) },
      read: LOCAL_MODEL_KEY,
      write: [LOCAL_MODEL_KEY],
    });
    assert.equal(config.knowledge.embeddings.models[LOCAL_MODEL_KEY].queryPrefix, BGE_SMALL_ZH.queryPrefix);
  });

  it("keeps what the owner's AKASHA_CONFIG says: their models, read, write and other settings", () => {
    const own = {
      follow: { groups: ["123"] },
      knowledge: {
        chunkSize: 400,
        embeddings: { models: { mine: { provider: "local" } }, read: null, write: [] },
      },
    };
    const config = JSON.parse(withLocalModel(JSON.stringify(own), URL));
    assert.deepEqual(config.follow, own.follow);
    assert.equal(config.knowledge.chunkSize, 400);
    assert.equal(config.knowledge.embeddings.read, null);
    assert.deepEqual(config.knowledge.embeddings.write, []);
    assert.deepEqual(Object.keys(config.knowledge.embeddings.models), ["mine", LOCAL_MODEL_KEY]);
  });

  it("lets the text's own fields for the local model win over its defaults", () => {
    const own = { knowledge: { embeddings: { models: { [LOCAL_MODEL_KEY]: { fusionWeight: 0.5 } } } } };
    const model = JSON.parse(withLocalModel(JSON.stringify(own), URL)).knowledge.embeddings.models[
      LOCAL_MODEL_KEY
    ];
    assert.deepEqual(model, { ...localModelSettings(URL), fusionWeight: 0.5 });
  });

  it("refuses AKASHA_CONFIG text that is not a JSON object, as the Worker does", () => {
    assert.throws(() => withLocalModel("[1]", URL), /JSON object/);
    assert.throws(() => withLocalModel("{not json", URL), SyntaxError);
  });
});
