// `akasha memory credentials [--erase --yes]` against a stand-in admin API: it reads every page,
// shows the masked text the API gives (or says it is not shown), erases in batches of at most a
// hundred only with --yes, and says what happened.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { routedApi, runCli } from "../support/cli-harness.mjs";

const stand = routedApi((req, url, body) => ({
  method: req.method,
  path: url.pathname,
  query: url.search,
  body,
}));
const api = (argv) => runCli([...argv, "--url", stand.base], { AKASHA_ADMIN_TOKEN: "tok" });

const item = (i) => ({
  nodeId: `m_${i}`,
  scope: "chat:qq:group:G1",
  kind: "fact",
  status: "active",
  masked: i === 0 ? null : `压缩包打开要输 [已隐藏的凭据] 别外传 ${i}`,
});

/** 450 items read in pages of 200, of which 150 hold a credential. */
function pages() {
  const total = 450;
  stand.routes = {
    "GET /api/memory/credentials": (_body, url) => {
      const offset = Number(url.searchParams.get("offset"));
      const scanned = Math.min(200, total - offset);
      const held = Array.from({ length: 150 }, (_, i) => item(i)).filter(
        (_, i) => i * 3 >= offset && i * 3 < offset + scanned,
      );
      return [200, { scanned, total, nextOffset: offset + scanned < total ? offset + scanned : null, held }];
    },
    "POST /api/memory/credentials/erase": (body) => [200, { erased: body.ids }],
  };
}

describe("memory credentials", () => {
  it("lists every page's items, masked, and erases nothing", async () => {
    pages();
    stand.seen.length = 0;
    const r = await api(["memory", "credentials"]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(
      stand.seen.map((s) => s.query),
      ["?limit=200&offset=0", "?limit=200&offset=200", "?limit=200&offset=400"],
    );
    assert.ok(stand.seen.every((s) => s.method === "GET"));
    assert.match(r.out, /m_149/);
    assert.match(r.out, /（不显示：它说了一个凭据是什么）/);
    assert.match(
      r.out,
      /150 条记忆、摘要或梦境候选含有凭据；用 --erase --yes 删除它们（候选只遮去其文本）。/,
    );
  });

  it("refuses --erase without --yes before any request", async () => {
    pages();
    stand.seen.length = 0;
    const r = await api(["memory", "credentials", "--erase"]);
    assert.equal(r.code, 2);
    assert.match(r.err, /删除后无法恢复；确认请加 --yes/);
    assert.equal(stand.seen.length, 0);
  });

  it("with --erase --yes erases what it listed, a hundred ids at most a request, and says how many", async () => {
    pages();
    stand.seen.length = 0;
    const r = await api(["memory", "credentials", "--erase", "--yes"]);
    assert.equal(r.code, 0, r.err);
    const erases = stand.seen.filter((s) => s.method === "POST");
    assert.deepEqual(
      erases.map((s) => s.body.ids.length),
      [100, 50],
    );
    assert.deepEqual(
      erases.flatMap((s) => s.body.ids),
      Array.from({ length: 150 }, (_, i) => `m_${i}`),
    );
    assert.match(r.out, /已处理 150 条含有凭据的记忆、摘要或梦境候选：记忆与摘要已删除，候选的文本已遮去。/);
  });

  it("says when no item holds one, and prints JSON with --json", async () => {
    stand.routes = {
      "GET /api/memory/credentials": [200, { scanned: 3, total: 3, nextOffset: null, held: [] }],
    };
    const r = await api(["memory", "credentials"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /读了所有记忆、会话摘要和梦境候选，没有一条含有凭据。/);
    const j = await api(["memory", "credentials", "--json"]);
    assert.deepEqual(JSON.parse(j.out), { held: [], erased: null });
  });

  it("fails with the API's reason when an erase is refused", async () => {
    pages();
    stand.routes["POST /api/memory/credentials/erase"] = [
      400,
      { error: "invalid", field: "ids", reason: "holds no credential: m_3; nothing was erased" },
    ];
    const r = await api(["memory", "credentials", "--erase", "--yes"]);
    assert.equal(r.code, 1);
    assert.match(r.err, /holds no credential: m_3; nothing was erased/);
  });
});
