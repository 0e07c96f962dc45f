// The local embedding service over the real bge-small-zh-v1.5 from the machine's cache (`npm run
// model:fetch` puts it there; .ci/run does): OpenAI's request and response shapes, batching,
// inputs past 512 tokens cut and never refused, malformed requests refused with 400 and an
// OpenAI-style error while the service goes on answering, concurrent requests, the query prefix.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { BGE_SMALL_ZH } from "../../scripts/model/pinned.mjs";
import { serve } from "../../scripts/model/serve.mjs";

let service;
let url;

before(async () => {
  service = await serve({ port: 0, log: () => {} });
  url = service.url;
});

after(() => service?.stop());

const MODEL = BGE_SMALL_ZH.servedAs;

async function post(body, path = "/embeddings") {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

async function embed(input) {
  const { status, json } = await post({ model: MODEL, input });
  assert.equal(status, 200, JSON.stringify(json));
  return json.data.map((d) => d.embedding);
}

const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);

describe("embedding service", () => {
  it("answers OpenAI's shape: one unit vector of 512 dimensions per input, in order, with usage", async () => {
    const { status, json } = await post({ model: MODEL, input: ["你好", "切走的时候保留它们的状态"] });
    assert.equal(status, 200);
    assert.equal(json.object, "list");
    assert.equal(json.model, MODEL);
    assert.deepEqual(
      json.data.map((d) => [d.object, d.index, d.embedding.length]),
      [
        ["embedding", 0, 512],
        ["embedding", 1, 512],
      ],
    );
    for (const d of json.data) assert.ok(Math.abs(dot(d.embedding, d.embedding) - 1) < 1e-6);
    assert.ok(json.usage.prompt_tokens >= 2 + 12 + 4, JSON.stringify(json.usage));
    const [single] = await embed("你好");
    assert.equal(
      dot(single, json.data[0].embedding).toFixed(6),
      "1.000000",
      "a text gets one vector, alone or not",
    );
  });

  it("a batch gives each text the vector it gets alone, whatever its neighbours' lengths", async () => {
    const texts = Array.from(
      { length: 40 },
      (_, i) => `第 ${i} 段：${"组件的状态".repeat(1 + (i % 7) * 20)}`,
    );
    const batch = await embed(texts);
    assert.equal(batch.length, 40);
    for (const i of [0, 13, 39]) {
      const [alone] = await embed(texts[i]);
      assert.ok(dot(alone, batch[i]) > 0.9999, `text ${i}: ${dot(alone, batch[i])}`);
    }
  });

  it("cuts an input past 512 tokens to its first 512 instead of refusing it", async () => {
    const head = "默认情况下，一个组件实例在被替换掉后会被销毁。".repeat(30);
    const long = head + "这一段在第五百一十二个词元之后，模型读不到它。".repeat(2000);
    const { status, json } = await post({ model: MODEL, input: [long, head] });
    assert.equal(status, 200);
    assert.ok(json.usage.prompt_tokens <= 2 * 512, JSON.stringify(json.usage));
    assert.ok(
      dot(json.data[0].embedding, json.data[1].embedding) > 0.9999,
      "only the first 512 tokens count",
    );
    const huge = await post({ model: MODEL, input: "字".repeat(2_000_000) });
    assert.equal(huge.status, 200);
    assert.equal(huge.json.usage.prompt_tokens, 512);
  });

  it("refuses malformed requests with 400 and OpenAI's error shape, and goes on answering", async () => {
    const cases = [
      ['{"model":', 400, null],
      [{ input: ["a"] }, 400, "model"],
      [{ model: MODEL }, 400, "input"],
      [{ model: MODEL, input: [] }, 400, "input"],
      [{ model: MODEL, input: [1, 2, 3] }, 400, "input"],
      [{ model: MODEL, input: ["a", 7] }, 400, "input"],
      [{ model: MODEL, input: "a", encoding_format: "int8" }, 400, "encoding_format"],
      [{ model: MODEL, input: "a", dimensions: 256 }, 400, "dimensions"],
      [{ model: MODEL, input: Array.from({ length: 257 }, () => "a") }, 400, "input"],
      [{ model: "text-embedding-3-small", input: "a" }, 404, "model"],
      ["[]", 400, null],
    ];
    for (const [body, status, param] of cases) {
      const res = await post(body);
      assert.equal(res.status, status, `${JSON.stringify(body).slice(0, 60)} → ${JSON.stringify(res.json)}`);
      assert.equal(res.json.error.type, "invalid_request_error");
      assert.equal(typeof res.json.error.message, "string");
      if (param) assert.equal(res.json.error.param, param);
    }
    const tooLarge = await post({ model: MODEL, input: "x".repeat(9 * 1024 * 1024) });
    assert.equal(tooLarge.status, 413);
    const wrongMethod = await fetch(`${url}/embeddings`);
    assert.equal(wrongMethod.status, 405);
    const unknown = await fetch(`${url}/chat/completions`, { method: "POST", body: "{}" });
    assert.equal(unknown.status, 404);
    assert.equal((await embed("还在")).length, 1);
  });

  it("answers concurrent requests each with its own vectors", async () => {
    const texts = Array.from({ length: 8 }, (_, i) => [
      `请求 ${i} 的第一句`,
      `请求 ${i} 的第二句，长一些：${"状态".repeat(i * 10)}`,
    ]);
    const sequential = [];
    for (const t of texts) sequential.push(await embed(t));
    const together = await Promise.all(texts.map((t) => embed(t)));
    together.forEach((vectors, i) => {
      assert.equal(vectors.length, 2);
      vectors.forEach((v, j) => {
        assert.ok(dot(v, sequential[i][j]) > 0.9999, `request ${i} text ${j}`);
      });
    });
  });

  it("encodes base64 as little-endian float32 of the same vector", async () => {
    const { json } = await post({ model: MODEL, input: "组件", encoding_format: "base64" });
    const bytes = Buffer.from(json.data[0].embedding, "base64");
    const decoded = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
    const [floats] = await embed("组件");
    assert.equal(decoded.length, 512);
    assert.ok(dot(decoded, floats) > 0.9999);
  });

  it("lower-cases Latin words onto the vocabulary instead of reading them as unknown", async () => {
    const [upper, lower, other] = await embed([
      "KeepAlive Teleport",
      "keepalive teleport",
      "Suspense Transition",
    ]);
    assert.ok(dot(upper, lower) > 0.9999, "case does not change the vector");
    assert.ok(dot(upper, other) < 0.95, "different English words stay different");
  });

  it("places a paraphrased question nearest its passage with the model card's query prefix", async () => {
    const passages = [
      "在组件之间切换时，有时会想要保留它们的状态。默认情况下，一个组件实例在被替换掉后会被销毁，切走的时候可以用 KeepAlive 保留它们的状态。",
      "计算属性值会基于其响应式依赖被缓存。一个计算属性仅会在其响应式依赖更新时才重新计算。",
      "今天的天气很好，我们一起去公园散步吧。",
    ];
    const docs = await embed(passages);
    const [query] = await embed(`${BGE_SMALL_ZH.queryPrefix}切换标签页的时候组件里填的内容都没了`);
    const scores = docs.map((d) => dot(query, d));
    assert.equal(scores.indexOf(Math.max(...scores)), 0, JSON.stringify(scores));
  });
});
