// The owner's CLI without a Worker: argument parsing (commander), refusals and their exit
// codes, the requests each command sends to a stand-in admin API, and the text formatting.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { target } from "../../scripts/cli/admin-api.mjs";
import { backupName, bookmarkOf, restoreCommand } from "../../scripts/cli/backup.mjs";
import { againstCap, clip, table, width } from "../../scripts/cli/format.mjs";
import { allMessages } from "../../scripts/cli/messages.mjs";
import { renderSpend } from "../../scripts/cli/usage.mjs";
import { routedApi, runCli } from "../support/cli-harness.mjs";

/** A stand-in admin API: records requests, answers from `stand.routes`. */
const stand = routedApi((req, url, body) => ({
  method: req.method,
  path: url.pathname,
  query: Object.fromEntries(url.searchParams),
  auth: req.headers.authorization,
  body,
}));
const { seen } = stand;
const cli = runCli;
const api = (argv, env = {}) => cli([...argv, "--url", stand.base], { AKASHA_ADMIN_TOKEN: "tok", ...env });

describe("parsing and refusals", () => {
  it("no command: usage on stderr, exit 2", async () => {
    const r = await cli([]);
    assert.equal(r.code, 2);
    assert.match(r.err, /用法： akasha <command>/);
  });

  it("unknown command and unknown option: exit 2 with commander's message", async () => {
    const a = await cli(["bogus"]);
    assert.equal(a.code, 2);
    assert.match(a.err, /错误：未知命令 'bogus'/);
    const b = await cli(["chats", "--colour"]);
    assert.equal(b.code, 2);
    assert.match(b.err, /错误：未知选项 '--colour'/);
    const c = await cli(["chats", "--colour", "--lang", "en"]);
    assert.equal(c.code, 2);
    assert.match(c.err, /error: unknown option '--colour'/);
  });

  it("--help exits 0", async () => {
    const r = await cli(["memory", "list", "--help"]);
    assert.equal(r.code, 0);
  });

  it("a bad chat key is refused before any request", async () => {
    seen.length = 0;
    const r = await api(["messages", "qq:grp:1"]);
    assert.equal(r.code, 2);
    assert.match(r.err, /'qq:grp:1' 不是会话标识/);
    assert.equal(seen.length, 0);
  });

  it("bad option values are refused: --limit 0, --importance 2", async () => {
    assert.equal((await api(["messages", "qq:group:G", "--limit", "0"])).code, 2);
    const r = await api(["memory", "edit", "m_1", "--importance", "2"]);
    assert.equal(r.code, 2);
    assert.match(r.err, /必须在 0 到 1 之间/);
  });

  it("a remote URL needs a token from the environment; a bad URL is refused", async () => {
    const r = await cli(["chats", "--url", "https://akasha.example.workers.dev"], { AKASHA_ADMIN_TOKEN: "" });
    assert.equal(r.code, 2);
    assert.match(r.err, /请设置环境变量 AKASHA_ADMIN_TOKEN（或加 --token <ADMIN_TOKEN>）/);
    assert.equal((await cli(["chats", "--url", "not a url"])).code, 2);
    assert.throws(() => target({ url: "ftp://x" }, {}), /必须以 http:\/\/ 或 https:\/\/ 开头/);
    assert.equal(target({}, { AKASHA_ADMIN_TOKEN: "t" }).base, "http://localhost:8787");
    assert.deepEqual(
      target(
        { url: "https://bot.example" },
        { AKASHA_ADMIN_TOKEN: "t", CF_ACCESS_CLIENT_ID: "id.access", CF_ACCESS_CLIENT_SECRET: "s" },
      ).access,
      { "cf-access-client-id": "id.access", "cf-access-client-secret": "s" },
    );
    assert.deepEqual(target({}, { AKASHA_ADMIN_TOKEN: "t" }).access, {});
    assert.throws(
      () => target({}, { AKASHA_ADMIN_TOKEN: "t", CF_ACCESS_CLIENT_ID: "id.access" }),
      /CF_ACCESS_CLIENT_ID 和 CF_ACCESS_CLIENT_SECRET（Access 服务令牌）要么都设置/,
    );
  });

  it("sessions: each operation is one request; forget repeats the session only with --yes; bad values refused", async () => {
    seen.length = 0;
    stand.routes = {
      "POST /api/sessions/s_1/forget": [400, { error: "invalid", field: "yes", reason: "confirm to forget" }],
      "POST /api/sessions/s_1/store": [200, { message: "ok" }],
    };
    assert.equal((await api(["sessions", "forget", "s_1"])).code, 1);
    assert.deepEqual(seen.at(-1).body, { confirm: "" });
    await api(["sessions", "forget", "s_1", "--yes"]);
    assert.deepEqual(seen.at(-1).body, { confirm: "s_1" });
    assert.equal((await api(["sessions", "store", "s_1", "off"])).code, 0);
    assert.deepEqual(seen.at(-1), {
      method: "POST",
      path: "/api/sessions/s_1/store",
      query: {},
      auth: "Bearer tok",
      body: { enabled: false },
    });
    const before = seen.length;
    assert.equal((await api(["sessions", "store", "s_1", "maybe"])).code, 2);
    assert.equal((await api(["sessions", "retention", "s_1", "soon"])).code, 2);
    assert.equal((await api(["sessions", "rename", "s_1"])).code, 2);
    assert.equal(seen.length, before);
  });

  it("sessions: forget-person without --yes only counts; backfill lists progress and restarts one group", async () => {
    seen.length = 0;
    stand.routes = {
      "GET /api/sessions/people/alice/forget": [200, { message: "将删除 alice 的个人记忆 3 条" }],
      "POST /api/sessions/people/alice/forget": [200, { message: "已删除" }],
      "GET /api/backfill": [
        200,
        {
          configured: true,
          groups: [
            { chatKey: "onebot:group:1", followed: true, status: "pending" },
            {
              chatKey: "onebot:group:2",
              followed: true,
              status: "failed",
              cursor: 5120,
              stored: 40,
              pages: 100,
              errors: 3,
              restarts: 0,
              lastError: "http: HTTP 502",
              doneReason: null,
            },
          ],
        },
      ],
      "POST /api/backfill/onebot%3Agroup%3A2/restart": [
        200,
        { changed: true, progress: { chatKey: "onebot:group:2", cursor: 5120 }, message: "restarted" },
      ],
      "POST /api/backfill/qq%3Agroup%3AG/restart": [
        400,
        { error: "invalid", field: "chat", reason: "must be a OneBot group chat key" },
      ],
    };
    const preview = await api(["sessions", "forget-person", "alice"]);
    assert.equal(preview.code, 0);
    assert.match(preview.out, /将删除/);
    assert.deepEqual([seen.at(-1).method, seen.at(-1).path], ["GET", "/api/sessions/people/alice/forget"]);
    await api(["sessions", "forget-person", "alice", "--yes"]);
    assert.deepEqual(seen.at(-1).body, { confirm: "alice" });
    const listed = await api(["sessions", "backfill", "--lang", "en"]);
    assert.equal(listed.code, 0);
    assert.match(listed.out, /onebot:group:1 {2}pending/);
    assert.match(listed.out, /onebot:group:2 {2}failed {2}cursor 5120 {2}stored 40/);
    assert.match(listed.out, /last error: http: HTTP 502/);
    const zh = await api(["sessions", "backfill"]);
    assert.match(
      zh.out,
      /^历史补全：开启\nonebot:group:1 {2}等待中\nonebot:group:2 {2}failed {2}位置 5120 {2}已保存 40/,
    );
    assert.match(zh.out, /最后一次错误：http: HTTP 502/);
    const restarted = await api(["sessions", "backfill-restart", "onebot:group:2"]);
    assert.equal(restarted.code, 0);
    assert.equal(
      restarted.out,
      "已重新开始：下一次定时任务从 message_seq 5120 之前继续补全 onebot:group:2\n",
    );
    assert.deepEqual(
      [seen.at(-1).method, seen.at(-1).path],
      ["POST", "/api/backfill/onebot%3Agroup%3A2/restart"],
    );
    const refused = await api(["sessions", "backfill-restart", "qq:group:G"]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /chat/);
    assert.equal((await api(["sessions", "backfill-restart"])).code, 2);
  });

  it("memory forget needs --yes and sends the id as confirmation", async () => {
    seen.length = 0;
    assert.equal((await api(["memory", "forget", "m_1"])).code, 2);
    assert.equal(seen.length, 0);
    stand.routes = { "POST /api/memory/m_1/forget": [200, { forgotten: "m_1" }] };
    const r = await api(["memory", "forget", "m_1", "--yes"]);
    assert.equal(r.code, 0);
    assert.deepEqual(seen.at(-1).body, { confirm: "m_1" });
  });

  it("memory edit with nothing to change is refused", async () => {
    const r = await api(["memory", "edit", "m_1"]);
    assert.equal(r.code, 2);
    assert.match(r.err, /没有要修改的内容/);
  });
});

describe("requests and answers", () => {
  it("chats --json prints the API's JSON, with the token from the environment", async () => {
    stand.routes = {
      "GET /api/chats": [
        200,
        { chats: [{ chatKey: "qq:group:G", targetType: "group", followed: true, lastSeen: 0 }] },
      ],
    };
    const r = await api(["chats", "--json"]);
    assert.equal(r.code, 0);
    assert.deepEqual(JSON.parse(r.out), stand.routes["GET /api/chats"][1]);
    assert.equal(seen.at(-1).auth, "Bearer tok");
  });

  it("an HTTP error exits 1 with the problem() message", async () => {
    stand.routes = {
      "GET /api/audit": [
        400,
        { error: "invalid", field: "since", reason: "must be epoch milliseconds or an ISO 8601 date" },
      ],
    };
    const r = await api(["audit", "--since", "yesterday"]);
    assert.equal(r.code, 1);
    assert.match(r.err, /HTTP 400 输入无效：since must be epoch milliseconds/);
    const english = await api(["audit", "--since", "yesterday", "--lang", "en"]);
    assert.match(english.err, /HTTP 400 invalid: since must be epoch milliseconds/);
    assert.deepEqual(seen.at(-1).query, { since: "yesterday", limit: "100" });
  });

  it("a throttled token exits 1 with the Worker's Chinese-first reason and the wait", async () => {
    const reason =
      "管理口令错误次数过多，请 321 秒后再试。Too many wrong admin tokens from this address; try again in 321 s.";
    stand.routes = { "GET /api/chats": [429, { error: "throttled", retryAfterSeconds: 321, reason }] };
    const r = await api(["chats"]);
    assert.equal(r.code, 1);
    assert.match(r.err, /^akasha chats: 管理口令错误次数过多，请 321 秒后再试。/m);
    assert.match(r.err, /http:\/\/127\.0\.0\.1:\d+ 返回 HTTP 429，Retry-After: 321 秒/);
  });

  it("memory list passes its filters as the query", async () => {
    stand.routes = { "GET /api/memory": [200, { items: [], total: 0 }] };
    await api(["memory", "list", "--kind", "fact", "--status", "active", "--limit", "5"]);
    assert.deepEqual(seen.at(-1).query, { kind: "fact", status: "active", limit: "5", offset: "0" });
  });

  it("memory edit sends only the fields given; --no-portable is false", async () => {
    stand.routes = {
      "PATCH /api/memory/m_2": [
        200,
        {
          item: {
            nodeId: "m_2",
            kind: "fact",
            status: "active",
            text: "t",
            scope: { type: "global", id: "global" },
            importance: 0.4,
            confidence: 1,
            sensitivity: "public",
            sensitivitySource: "explicit",
            portable: false,
            createdAt: 0,
            updatedAt: 0,
          },
        },
      ],
    };
    const r = await api(["memory", "edit", "m_2", "--importance", "0.4", "--no-portable"]);
    assert.equal(r.code, 0);
    // The text output then reads the calendar's zone (GET /api/settings) to show the times in.
    assert.deepEqual(seen.findLast((x) => x.method === "PATCH").body, { importance: 0.4, portable: false });
    assert.match(r.out, /m_2 {2}\[fact\] active/);
  });

  it("memory done: marks a task done, shows when it expired in the calendar's zone, and says a refusal in Chinese", async () => {
    const task = {
      nodeId: "m_3",
      kind: "task",
      status: "archived",
      text: "交周报",
      scope: { type: "global", id: "global" },
      importance: 0.6,
      confidence: 1,
      sensitivity: "public",
      sensitivitySource: "explicit",
      portable: false,
      createdAt: 0,
      updatedAt: Date.parse("2026-12-02T16:30:00Z"),
      decay: {
        reinforcedAt: null,
        reinforceCount: 0,
        keepForever: false,
        dueAt: null,
        expiredAt: Date.parse("2026-12-02T16:30:00Z"),
      },
    };
    stand.routes = {
      "POST /api/memory/m_3/done": [200, { item: task }],
      "GET /api/settings": [200, { effective: { calendar: { timeZone: "Asia/Shanghai" } } }],
      "POST /api/memory/m_4/done": [
        400,
        { error: "invalid", field: "status", reason: "only an active task can be marked done" },
      ],
      "POST /api/memory/m_5/done": [404, { error: "not-found", what: "memory item m_5" }],
    };
    const r = await api(["memory", "done", "m_3"]);
    assert.equal(r.code, 0, r.err);
    assert.equal(seen.findLast((x) => x.method === "POST").path, "/api/memory/m_3/done");
    assert.match(r.out, /m_3 {2}\[task\] archived/);
    assert.match(r.out, /已过期于 {2}2026-12-03 00:30 \+08:00/);
    const json = await api(["memory", "done", "m_3", "--json"]);
    assert.equal(JSON.parse(json.out).item.status, "archived");
    const refused = await api(["memory", "done", "m_4"]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /HTTP 400：只有有效（active）的待办（task）才能标记完成，什么都没有改变/);
    const english = await api(["memory", "done", "m_4", "--lang", "en"]);
    assert.match(english.err, /only an active task can be marked done; nothing changed/);
    const unknown = await api(["memory", "done", "m_5"]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /没有记忆条目 m_5/);
  });

  it("the existing kb and embeddings flags keep working", async () => {
    stand.routes = {
      "POST /api/kb/collections": [200, { created: true }],
      "POST /api/kb/search": [200, { items: [] }],
      "GET /api/embeddings/status": [200, { models: [{ missing: 3 }] }],
      "POST /api/embeddings/rebuild": [
        200,
        { done: true, reports: [{ model: "m", embedded: 3, upserted: 3, removed: 0 }] },
      ],
    };
    await api(["kb", "create", "wiki", "--chunk-size", "400", "--overlap", "40", "--title", "Wiki"]);
    assert.deepEqual(seen.at(-1).body, { name: "wiki", chunkSize: 400, chunkOverlap: 40, title: "Wiki" });
    await api(["kb", "search", "阿贝多", "角色", "--collection", "a", "--collection", "b", "--limit", "3"]);
    assert.deepEqual(seen.at(-1).body, { query: "阿贝多 角色", collections: ["a", "b"], limit: 3 });
    const r = await api(["embeddings", "rebuild", "--resync", "--limit", "10"]);
    assert.equal(r.code, 0);
    assert.deepEqual(seen.at(-1).body, { limit: 10, resync: true });
    assert.match(r.out, /完成：嵌入了 3 个向量/);
  });

  it("embeddings switch: dual write, fill, read, write alone — each step saved on the stored layer", async () => {
    const local = { provider: "local", model: "local-hash", version: "1-512", dims: 512 };
    const bge = { provider: "openai-compatible", model: "bge-small-zh-v1.5", version: "v", dims: 512 };
    let stored = { follow: { groups: ["G1"] } };
    const effective = () => ({
      knowledge: {
        embeddings: {
          models: { local, "bge-small-zh": bge },
          read: stored.knowledge?.embeddings?.read ?? "local",
          write: stored.knowledge?.embeddings?.write ?? ["local"],
        },
      },
    });
    let passes = 0;
    stand.routes = {
      "GET /api/settings": () => [200, { stored, effective: effective() }],
      "PUT /api/settings": (body) => {
        stored = body;
        return [200, { stored, effective: effective() }];
      },
      "GET /api/embeddings/status": () => [
        200,
        { models: [{ missing: 4 }], stored: [{ model: "local-hash@1-512", vectors: 9, inUse: false }] },
      ],
      "POST /api/embeddings/rebuild": () => {
        passes++;
        return [200, { done: passes === 2, reports: [{ model: "bge-small-zh-v1.5@v", embedded: 2 }] }];
      },
    };
    seen.length = 0;
    const r = await api(["embeddings", "switch", "bge-small-zh", "--limit", "2"]);
    assert.equal(r.code, 0, r.err);
    const puts = seen.filter((x) => x.method === "PUT").map((x) => x.body.knowledge.embeddings);
    assert.deepEqual(puts, [
      { models: { "bge-small-zh": bge }, write: ["local", "bge-small-zh"] },
      { models: { "bge-small-zh": bge }, write: ["local", "bge-small-zh"], read: "bge-small-zh" },
      { models: { "bge-small-zh": bge }, write: ["bge-small-zh"], read: "bge-small-zh" },
    ]);
    assert.deepEqual(stored.follow, { groups: ["G1"] }, "the rest of the stored layer is kept");
    const order = seen.map((x) => `${x.method} ${x.path}`).filter((x) => !x.startsWith("GET"));
    assert.deepEqual(order, [
      "PUT /api/settings",
      "POST /api/embeddings/rebuild",
      "POST /api/embeddings/rebuild",
      "PUT /api/settings",
      "PUT /api/settings",
    ]);
    assert.match(r.out, /embeddings retire local-hash@1-512/);

    const unknown = await api(["embeddings", "switch", "bge-m4"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /设置里没有向量模型 'bge-m4'（已有：local, bge-small-zh）/);

    stand.routes["POST /api/embeddings/retire"] = (body) => [200, { model: body.model, deleted: 9 }];
    const retired = await api(["embeddings", "retire", "local-hash@1-512"]);
    assert.equal(retired.code, 0);
    assert.deepEqual(seen.at(-1).body, { model: "local-hash@1-512" });
    assert.match(retired.out, /local-hash@1-512：删除了 9 个向量/);
  });

  it("usage shows today's spend against the caps", async () => {
    stand.routes = {
      "GET /api/usage": [
        200,
        {
          total: [],
          byDay: [],
          byChat: [],
          spend: {
            day: "2026-12-01",
            timeZone: "Asia/Shanghai",
            chatDailyTokens: 100,
            globalDailyTokens: null,
            global: { calls: 2, tokens: 150, cap: null, capped: false },
            chats: [{ chatKey: "qq:group:G", calls: 2, tokens: 150, cap: 100, capped: true }],
          },
        },
      ],
    };
    const r = await api(["usage", "--days", "7"]);
    assert.equal(r.code, 0);
    assert.deepEqual(seen.at(-1).query, { days: "7" });
    assert.match(r.out, /今天 2026-12-01（Asia\/Shanghai）：所有会话合计 150 tokens（不设上限）/);
    assert.match(r.out, /qq:group:G +2 +150 \/ 100 tokens \(150\.0 %\) — 已达上限/);
  });
});

describe("messages --export paging", () => {
  it("pages back by timestamp without losing messages that share one", async () => {
    const all = Array.from({ length: 1203 }, (_, i) => ({
      seq: i + 1,
      ts: 1000 + Math.floor(i / 3),
      text: `m${i}`,
    }));
    const fake = {
      async call(_m, route) {
        const q = new URL(`http://x${route}`).searchParams;
        const before = q.has("before") ? Number(q.get("before")) : Infinity;
        const messages = all
          .filter((m) => m.ts < before)
          .sort((a, b) => b.ts - a.ts || b.seq - a.seq)
          .slice(0, Number(q.get("limit")));
        return { messages };
      },
    };
    const got = await allMessages(fake, "qq:group:G");
    assert.deepEqual(
      got.map((m) => m.seq),
      all.map((m) => m.seq),
    );
  });
});

describe("formatting", () => {
  it("aligns tables with CJK text at two columns a character", () => {
    assert.equal(width("阿贝多a"), 7);
    const t = table(
      [
        { a: "阿贝多", n: 5 },
        { a: "x", n: 12 },
      ],
      [
        { title: "name", value: (r) => r.a },
        { title: "n", value: (r) => r.n },
      ],
    );
    assert.equal(t, "name     n\n阿贝多   5\nx       12");
    assert.equal(table([], [{ title: "x", value: () => 1 }], { empty: "none" }), "none");
  });

  it("clips to a width with an ellipsis", () => {
    assert.equal(clip("阿贝多是蒙德的炼金术士", 9), "阿贝多是…");
    assert.equal(clip("short", 9), "short");
  });

  it("says how close a cap is", () => {
    assert.equal(againstCap(50, 200), "50 / 200 tokens (25.0 %)");
    assert.equal(againstCap(200, 200), "200 / 200 tokens (100.0 %) — 已达上限");
    assert.match(renderSpend(null), /没有报告/);
  });
});

describe("backup", () => {
  it("reads the bookmark of wrangler's JSON and prints the restore command", () => {
    assert.equal(
      bookmarkOf('{"bookmark":"00000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683"}'),
      "00000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683",
    );
    assert.equal(bookmarkOf("not json"), null);
    assert.equal(
      restoreCommand("b1"),
      "npx wrangler d1 time-travel restore DB --env production --bookmark b1",
    );
    assert.equal(
      backupName(Date.parse("2026-12-01T14:03:05.123Z")),
      "akasha-d1-2026-12-01T14-03-05-123Z.sqlite",
    );
  });
});
