// `npm run model:fetch` against a model hub and a Maven repository served on loopback, with a
// small stand-in model whose pinned hashes are those of its test files: the hub first, Maven
// when the hub fails, a cached model left alone, a damaged one fetched again, bytes that differ
// from the pins never written, and a plain error naming the package when nothing answers.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { zipSync } from "fflate";
import { ModelUnavailable, modelDir, sha256, verifiedModel } from "../../scripts/model/cache.mjs";
import { fetchModel } from "../../scripts/model/fetch.mjs";
import { mavenJarPath } from "../../scripts/model/pinned.mjs";

const enc = new TextEncoder();
const MODEL = enc.encode("onnx bytes of a stand-in model");
const TOKENIZER = enc.encode('{"model":{"type":"WordPiece"}}');
const JAR = zipSync({
  README: enc.encode("not the model"),
  "x-q.onnx": MODEL,
  "x-q-tokenizer.json": TOKENIZER,
});

const SPEC = {
  name: "stand-in",
  version: "1.0.0",
  files: {
    model: {
      name: "model.onnx",
      sha256: sha256(MODEL),
      hubPath: "onnx/model_quantized.onnx",
      jarEntry: "x-q.onnx",
    },
    tokenizer: {
      name: "tokenizer.json",
      sha256: sha256(TOKENIZER),
      hubPath: "tokenizer.json",
      jarEntry: "x-q-tokenizer.json",
    },
  },
  hub: { repo: "org/stand-in", revision: "abc123" },
  maven: { group: "dev.test", artifact: "stand-in", version: "1.0.0", sha256: sha256(JAR) },
};

/** What the fake registries serve: path → bytes; anything else is a 404. Requests are counted. */
let served = new Map();
const requests = [];
let server;
let base;
const roots = [];

function freshRoot() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "akasha-model-cache-"));
  roots.push(dir);
  return dir;
}

const quiet = { log: () => {} };

before(async () => {
  server = http.createServer((req, res) => {
    requests.push(req.url);
    const body = served.get(req.url);
    res.writeHead(body ? 200 : 404);
    res.end(body ?? "not found");
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${server.address().port}`;
});

after(() => {
  server.close();
  for (const dir of roots) rmSync(dir, { recursive: true, force: true });
});

const hubUrl = (file) => `/hub/${SPEC.hub.repo}/resolve/${SPEC.hub.revision}/${file.hubPath}`;
const jarUrl = `/maven/${mavenJarPath(SPEC.maven)}`;
const options = (root) => ({ root, hubBase: `${base}/hub`, mavenBase: `${base}/maven`, ...quiet });

describe("model:fetch", () => {
  it("takes the files from the hub at the pinned revision when it answers", async () => {
    served = new Map([
      [hubUrl(SPEC.files.model), MODEL],
      [hubUrl(SPEC.files.tokenizer), TOKENIZER],
    ]);
    const root = freshRoot();
    const result = await fetchModel(SPEC, options(root));
    assert.equal(result.how, "org/stand-in@abc123");
    assert.deepEqual(readFileSync(path.join(modelDir(SPEC, root), "model.onnx")), Buffer.from(MODEL));
    const manifest = JSON.parse(readFileSync(path.join(modelDir(SPEC, root), "source.json"), "utf8"));
    assert.equal(manifest.source, "org/stand-in@abc123");
  });

  it("falls back to the Maven jar when the hub fails, then leaves a verified cache alone", async () => {
    served = new Map([[jarUrl, JAR]]);
    const root = freshRoot();
    const first = await fetchModel(SPEC, options(root));
    assert.equal(first.how, "dev.test:stand-in:1.0.0");
    const paths = await verifiedModel(SPEC, modelDir(SPEC, root));
    assert.deepEqual(readFileSync(paths.tokenizer), Buffer.from(TOKENIZER));

    requests.length = 0;
    const again = await fetchModel(SPEC, options(root));
    assert.equal(again.how, "cached");
    assert.deepEqual(requests, [], "a verified cache is not downloaded again");
  });

  it("fetches again when a cached file was damaged, and verification names the file", async () => {
    served = new Map([[jarUrl, JAR]]);
    const root = freshRoot();
    await fetchModel(SPEC, options(root));
    const file = path.join(modelDir(SPEC, root), "model.onnx");
    writeFileSync(file, "damaged");
    await assert.rejects(verifiedModel(SPEC, modelDir(SPEC, root)), (e) => {
      assert.ok(e instanceof ModelUnavailable);
      assert.match(e.message, /model\.onnx has sha256 [0-9a-f]{64}, expected/);
      return true;
    });
    const result = await fetchModel(SPEC, options(root));
    assert.equal(result.how, "dev.test:stand-in:1.0.0");
    assert.deepEqual(readFileSync(file), Buffer.from(MODEL));
  });

  it("never writes bytes that differ from the pins: a changed jar or file is refused", async () => {
    const otherJar = zipSync({ "x-q.onnx": enc.encode("another model"), "x-q-tokenizer.json": TOKENIZER });
    served = new Map([
      [hubUrl(SPEC.files.model), enc.encode("another model")],
      [hubUrl(SPEC.files.tokenizer), TOKENIZER],
      [jarUrl, otherJar],
    ]);
    const root = freshRoot();
    await assert.rejects(fetchModel(SPEC, options(root)), (e) => {
      assert.match(e.message, /model\.onnx has sha256 [0-9a-f]{64}, expected the pinned/);
      assert.match(e.message, /jar has sha256 [0-9a-f]{64}, expected the pinned/);
      return true;
    });
    assert.equal(existsSync(modelDir(SPEC, root)), false, "nothing is left in the cache");
  });

  it("says what to install, and how, when no source answers; a jar given by hand installs", async () => {
    served = new Map();
    const root = freshRoot();
    await assert.rejects(fetchModel(SPEC, options(root)), (e) => {
      assert.match(e.message, /could not be fetched/);
      assert.match(e.message, /dev\.test:stand-in:1\.0\.0/);
      assert.match(e.message, new RegExp(SPEC.maven.sha256));
      assert.match(e.message, /npm run model:fetch -- --jar/);
      return true;
    });
    const jar = path.join(root, "by-hand.jar");
    writeFileSync(jar, JAR);
    const result = await fetchModel(SPEC, { ...options(root), jar });
    assert.equal(result.how, "by-hand.jar");
    await verifiedModel(SPEC, modelDir(SPEC, root));
  });
});
