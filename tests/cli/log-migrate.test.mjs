// `akasha log migrate` and `log rollback` against a stand-in admin API: the steps it sends until
// the Worker says done, the progress it prints in Chinese (English with --lang en), --status
// that only reads, --retry, a mismatch's exit code, and a bad option refused before any request.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { routedApi, runCli } from "../support/cli-harness.mjs";

const stand = routedApi((req, url, body) => ({ method: req.method, path: url.pathname, body }));
const { seen } = stand;
const api = (argv) => runCli([...argv, "--url", stand.base], { AKASHA_ADMIN_TOKEN: "tok" });

const progress = (over = {}) => ({
  chats: { total: 3, copying: 1, verified: 1, mismatch: 0, skipped: 1, ...over.chats },
  rows: { copied: 500, total: 1200, ...over.rows },
  done: false,
  mismatches: [],
  ...over.top,
});

describe("log migrate", () => {
  it("steps until done, printing progress after each step", async () => {
    seen.length = 0;
    const answers = [
      progress(),
      progress({ rows: { copied: 1000 } }),
      progress({ chats: { copying: 0, verified: 2 }, rows: { copied: 1200 }, top: { done: true } }),
    ];
    stand.routes = { "POST /api/log-migration/step": () => [200, { ...answers.shift(), step: {} }] };
    const r = await api(["log", "migrate", "--page-size", "200"]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(
      seen.map((s) => [s.method, s.path, s.body]),
      Array.from({ length: 3 }, () => ["POST", "/api/log-migration/step", { pageSize: 200 }]),
    );
    assert.match(r.out, /会话 1\/3 已核对（跳过 1，不一致 0），已复制 500\/1200 条消息/);
    assert.match(r.out, /会话 2\/3 已核对（跳过 1，不一致 0），已复制 1200\/1200 条消息/);
    assert.match(r.out, /迁移完成：3 个会话的消息记录都在各自的会话对象里/);
  });

  it("--status only reads; a mismatch is named with its counts and the run exits 1", async () => {
    seen.length = 0;
    const mismatched = progress({
      chats: { copying: 0, mismatch: 1 },
      top: { done: true, mismatches: [{ chatKey: "qq:group:G1", detail: "object 1198, D1 1200 (-2)" }] },
    });
    stand.routes = {
      "GET /api/log-migration": [200, mismatched],
      "POST /api/log-migration/step": [200, { ...mismatched, step: {} }],
    };
    const status = await api(["log", "migrate", "--status"]);
    assert.equal(status.code, 0);
    assert.deepEqual(
      seen.map((s) => `${s.method} ${s.path}`),
      ["GET /api/log-migration"],
    );
    assert.match(status.out, /不一致 qq:group:G1：会话对象有 1198 条，D1 有 1200 条（相差 -2）/);
    const run = await api(["log", "migrate"]);
    assert.equal(run.code, 1);
    assert.match(run.out, /1 个会话不一致，仍从 D1 读取/);
    const english = await runCli(["log", "migrate", "--status", "--lang", "en", "--url", stand.base], {
      AKASHA_ADMIN_TOKEN: "tok",
    });
    assert.match(english.out, /mismatch qq:group:G1: the chat object has 1198, D1 has 1200 \(-2\)/);
  });

  it("--retry reopens the mismatched chats first; rollback repeats until none is left", async () => {
    seen.length = 0;
    let left = 250;
    stand.routes = {
      "POST /api/log-migration/retry": [200, { reopened: 1, progress: progress() }],
      "POST /api/log-migration/step": [200, { ...progress({ top: { done: true } }), step: {} }],
      "POST /api/log-migration/rollback": () => {
        const n = Math.min(200, left);
        left -= n;
        return [200, { rolledBack: n, left, progress: progress() }];
      },
    };
    const retried = await api(["log", "migrate", "--retry"]);
    assert.equal(retried.code, 0, retried.err);
    assert.deepEqual(
      seen.map((s) => s.path),
      ["/api/log-migration/retry", "/api/log-migration/step"],
    );
    assert.match(retried.out, /不一致的 1 个会话将从头重新复制/);
    const back = await api(["log", "rollback"]);
    assert.equal(back.code, 0);
    assert.match(back.out, /250 个会话改回从 D1 读取/);
    assert.equal(seen.filter((s) => s.path === "/api/log-migration/rollback").length, 2);
  });

  it("refuses a bad page size before any request", async () => {
    seen.length = 0;
    const r = await api(["log", "migrate", "--page-size", "0"]);
    assert.equal(r.code, 2);
    assert.equal(seen.length, 0);
  });

  it("delete-d1 without --yes only asks what would go; with --yes it deletes page by page and names a kept chat", async () => {
    seen.length = 0;
    stand.routes = {
      "POST /api/log-migration/delete-d1": (body) =>
        body?.confirm === true
          ? [
              200,
              seen.filter((s) => s.body?.confirm === true).length === 1
                ? {
                    confirmed: true,
                    chats: [
                      { chatKey: "qq:group:A", rows: 30, outcome: "deleted" },
                      {
                        chatKey: "qq:group:B",
                        rows: 5,
                        outcome: "kept",
                        reason: "这个聊天的记录仍从 D1 读取（已回滚或未完成迁移）",
                      },
                    ],
                    rows: 30,
                    left: 1,
                  }
                : {
                    confirmed: true,
                    chats: [{ chatKey: "qq:group:C", rows: 7, outcome: "deleted" }],
                    rows: 7,
                    left: 0,
                  },
            ]
          : [
              200,
              {
                confirmed: false,
                chats: [{ chatKey: "qq:group:A", rows: 30, outcome: "kept" }],
                rows: 30,
                left: 2,
              },
            ],
    };
    const asked = await api(["log", "delete-d1"]);
    assert.equal(asked.code, 0, asked.err);
    assert.deepEqual(
      seen.map((s) => s.body),
      [{}],
    );
    assert.match(asked.out, /将删除 1 个已核对会话在 D1 的 30 条旧消息记录（之后还有更多）；确认请加 --yes/);
    seen.length = 0;
    const done = await api(["log", "delete-d1", "--yes"]);
    assert.equal(done.code, 0, done.err);
    assert.deepEqual(
      seen.map((s) => s.body),
      [{ confirm: true }, { confirm: true }],
    );
    assert.match(done.out, /保留 qq:group:B：这个聊天的记录仍从 D1 读取/);
    assert.match(done.out, /已删除 2 个会话在 D1 的 37 条旧消息记录/);
  });
});
