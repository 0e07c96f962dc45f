// `akasha log credentials [--mask --yes]` against a stand-in admin API: it steps the sweep from
// cursor to cursor until the Worker says done, sums the steps' counts, masks only with --mask
// --yes, names a chat whose object failed (exit 1), says when the logs are clean, and prints the
// totals as JSON with --json.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { routedApi, runCli } from "../support/cli-harness.mjs";

const stand = routedApi((req, url, body) => ({ method: req.method, path: url.pathname, body }));
const { seen } = stand;
const api = (argv) => runCli([...argv, "--url", stand.base], { AKASHA_ADMIN_TOKEN: "tok" });

/** One step's answer: the counts given, nothing else. */
const step = (over = {}) => ({
  mask: false,
  done: false,
  cursor: null,
  progress: { stage: "objects", chatsBefore: 0, chats: 3 },
  log: { read: 0, holding: 0 },
  other: 0,
  d1: { read: 0, holding: 0 },
  unswept: [],
  ...over,
});

/** Three steps: two in the chat objects, one in D1's log; `mask` echoed as the Worker does. */
function threeSteps(extra = {}) {
  const answers = [
    step({
      cursor: "o:2000:qq:group:G1",
      log: { read: 2000, holding: 3 },
      other: 1,
      progress: { stage: "objects", chatsBefore: 0, chats: 3 },
    }),
    step({
      cursor: "d1:0",
      log: { read: 700, holding: 2 },
      other: 2,
      progress: { stage: "d1", chatsBefore: 3, chats: 3 },
      ...extra,
    }),
    step({
      done: true,
      d1: { read: 500, holding: 4 },
      progress: { stage: "done", chatsBefore: 3, chats: 3 },
    }),
  ];
  stand.routes = {
    "POST /api/log-credentials/step": (body) => [200, { ...answers.shift(), mask: body.mask === true }],
  };
}

describe("log credentials", () => {
  it("counts read-only step after step, passing each cursor back, and sums the counts", async () => {
    threeSteps();
    seen.length = 0;
    const r = await api(["log", "credentials"]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(
      seen.map((s) => [s.method, s.path, s.body]),
      [
        ["POST", "/api/log-credentials/step", { mask: false }],
        ["POST", "/api/log-credentials/step", { mask: false, cursor: "o:2000:qq:group:G1" }],
        ["POST", "/api/log-credentials/step", { mask: false, cursor: "d1:0" }],
      ],
    );
    assert.match(r.out, /读了会话对象里的 2700 条消息记录和 D1 里的 500 条。/);
    assert.match(
      r.out,
      /含有凭据的：会话对象的消息记录 5 条，D1 的消息记录 4 条，短期上下文、梦境日志和回复计划 3 条。/,
    );
    assert.match(r.out, /共 12 条记录含有凭据；用 --mask --yes 遮住它们。/);
    assert.doesNotMatch(r.out, /已遮住/);
  });

  it("refuses --mask without --yes before any request", async () => {
    threeSteps();
    seen.length = 0;
    const r = await api(["log", "credentials", "--mask"]);
    assert.equal(r.code, 2);
    assert.match(r.err, /遮住后原文无法恢复；确认请加 --yes/);
    assert.equal(seen.length, 0);
  });

  it("with --mask --yes sends mask true in every step and says how many rows it masked", async () => {
    threeSteps();
    seen.length = 0;
    const r = await api(["log", "credentials", "--mask", "--yes"]);
    assert.equal(r.code, 0, r.err);
    assert.equal(seen.length, 3);
    assert.ok(seen.every((s) => s.body.mask === true));
    assert.match(r.out, /已遮住 12 条含有凭据的记录。/);
    assert.doesNotMatch(r.out, /用 --mask --yes/);
  });

  it("names each chat it could not read, after the summary, and exits 1", async () => {
    threeSteps({ unswept: [{ chat: "qq:group:G2", error: "object overloaded" }] });
    const r = await api(["log", "credentials"]);
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /1 个会话的记录没有读到（再运行一次会重读）：\n {2}qq:group:G2：object overloaded/);
    assert.ok(r.out.indexOf("qq:group:G2") > r.out.indexOf("共 12 条记录含有凭据"));
  });

  it("says the logs are clean when no row holds a value, in English with --lang en", async () => {
    const clean = () => {
      stand.routes = {
        "POST /api/log-credentials/step": [
          200,
          step({ done: true, log: { read: 40, holding: 0 }, d1: { read: 9, holding: 0 } }),
        ],
      };
    };
    clean();
    const r = await api(["log", "credentials"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /读到的消息记录都是干净的：没有一条含有凭据。/);
    assert.doesNotMatch(r.out, /含有凭据的：/);
    const english = await api(["log", "credentials", "--lang", "en"]);
    assert.match(english.out, /Read 40 rows of the chat objects' logs and 9 rows of D1's log\./);
    assert.match(english.out, /The logs read are clean: no row holds a credential\./);
  });

  it("prints the summed totals as JSON with --json", async () => {
    threeSteps({ unswept: [{ chat: "qq:group:G2", error: "object overloaded" }] });
    const r = await api(["log", "credentials", "--json"]);
    assert.equal(r.code, 1, r.err);
    assert.deepEqual(JSON.parse(r.out), {
      mask: false,
      log: { read: 2700, holding: 5 },
      other: 3,
      d1: { read: 500, holding: 4 },
      unswept: [{ chat: "qq:group:G2", error: "object overloaded" }],
    });
  });

  it("fails with what the Worker said when it refuses a cursor", async () => {
    stand.routes = {
      "POST /api/log-credentials/step": (body) =>
        body.cursor === undefined
          ? [200, step({ cursor: "o:5:qq:group:G1" })]
          : [400, { error: "invalid", field: "cursor", reason: "is not a cursor of this sweep" }],
    };
    const r = await api(["log", "credentials"]);
    assert.equal(r.code, 1);
    assert.match(r.err, /Worker 不认这一步的位置（is not a cursor of this sweep）；再运行一次会从头读起/);
  });
});
