// The owner's first-day commands without a Worker: admins, follow, settings, doctor and the
// status line, against a stand-in admin API. What an owner reads (the text, not only --json)
// is checked, and bad input is refused before any request.
import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import { metadataCheck, migrationsCheck, renderDoctor, webhookCheck } from "../../scripts/cli/doctor.mjs";
import { setLang } from "../../scripts/cli/i18n/lang.mjs";
import { renderStatus } from "../../scripts/cli/status.mjs";
import { routedApi, runCli } from "../support/cli-harness.mjs";

const stand = routedApi((req, url, body) => ({
  method: req.method,
  path: url.pathname,
  query: url.search,
  body,
}));
const { seen } = stand;
const cli = (argv) => runCli([...argv, "--url", stand.base, "--token", "tok"]);
beforeEach(() => {
  seen.length = 0;
});

describe("admins", () => {
  it("claim prints the code once, with the command to send and the warning about groups", async () => {
    stand.routes = {
      "POST /api/admins/claim": [200, { code: "akc_abcdefghijklmnopqrstuvwx", expiresAt: 1_800_000_000_000 }],
    };
    const r = await cli(["admins", "claim"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /私聊机器人，发送：\/claim akc_abcdefghijklmnopqrstuvwx/);
    assert.match(r.out, /不要发到群里/);
    stand.routes = {
      "POST /api/admins/claim": [409, { error: "conflict", reason: "an admin is already declared" }],
    };
    const refused = await cli(["admins", "claim"]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /已经有管理员了/);
    assert.doesNotMatch(refused.err, /already declared/);
    assert.equal(refused.out, "");
  });

  it("list, add and remove say what the Worker did", async () => {
    stand.routes = {
      "GET /api/admins": [200, { admins: [], identityEnabled: false, fromConfig: [] }],
      "POST /api/admins": (b) => [
        200,
        { path: "identity.admins", before: [], after: [b.account], changed: true, enabledIdentity: true },
      ],
      "DELETE /api/admins": (b) => [
        200,
        { path: "identity.admins", before: [], after: [], changed: false, enabledIdentity: false, b },
      ],
    };
    assert.match((await cli(["admins", "list"])).out, /还没有管理员.*\n.*admins claim/);
    const added = await cli(["admins", "add", "qq:user:OWNER"]);
    assert.match(added.out, /已添加管理员 qq:user:OWNER；身份系统已开启/);
    assert.deepEqual(seen.at(-1), {
      method: "POST",
      path: "/api/admins",
      query: "",
      body: { account: "qq:user:OWNER" },
    });
    assert.match(
      (await cli(["admins", "remove", "qq:user:NOBODY"])).out,
      /qq:user:NOBODY 本来就不在管理员列表中，什么都没有改变/,
    );
  });
});

describe("follow", () => {
  it("list, add and remove in plain Chinese; an HTTP refusal exits 1 with the field", async () => {
    stand.routes = {
      "GET /api/follow": [200, { groups: [] }],
      "POST /api/follow": [
        400,
        { error: "invalid", field: "chat", reason: "only groups and channels are followed" },
      ],
      "DELETE /api/follow": [
        200,
        { path: "follow.groups", before: ["qq:group:G"], after: [], changed: true },
      ],
    };
    assert.match((await cli(["follow", "list"])).out, /没有关注任何群/);
    const bad = await cli(["follow", "add", "qq:private:U"]);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /HTTP 400 输入无效：chat only groups/);
    assert.match((await cli(["follow", "remove", "qq:group:G"])).out, /已移除群 qq:group:G。现在共 0 个/);
  });
});

describe("leave-out", () => {
  it("list, add --forget and remove in plain Chinese; a garbled key is refused by the API and exits 1", async () => {
    stand.routes = {
      "GET /api/leave-out": [200, { accounts: ["qq:user:A"], fromConfig: [] }],
      "POST /api/leave-out": (body) =>
        body.account === "小明"
          ? [
              400,
              {
                error: "invalid",
                field: "account",
                reason: "'小明' is not an account key (channel:user:id)",
              },
            ]
          : [
              200,
              {
                path: "privacy.doNotRecord",
                account: body.account,
                before: [],
                after: [body.account],
                changed: true,
                forgotten: body.forget
                  ? { messages: 3, memory: 1, candidates: 0, observations: 2, linkedPerson: "p1" }
                  : null,
              },
            ],
      "DELETE /api/leave-out": [
        200,
        {
          path: "privacy.doNotRecord",
          account: "qq:user:A",
          before: ["qq:user:A"],
          after: [],
          changed: true,
          forgotten: null,
        },
      ],
    };
    assert.match((await cli(["leave-out", "list"])).out, /不记录名单（1）：\n {2}qq:user:A/);
    const added = await cli(["leave-out", "add", "qq:user:B", "--forget"]);
    assert.equal(added.code, 0);
    assert.deepEqual(seen.at(-1).body, { account: "qq:user:B", forget: true });
    assert.match(added.out, /已把 qq:user:B 加入不记录名单/);
    assert.match(added.out, /已删除该账号的消息 3 条、个人记忆 1 条/);
    assert.match(added.out, /关联到人物 p1：人物的共同记忆和其它账号未删除/);
    const plain = await cli(["leave-out", "add", "qq:user:C"]);
    assert.deepEqual(seen.at(-1).body, { account: "qq:user:C" });
    assert.match(plain.out, /已有的记录保留；要一并删除，请加 --forget/);
    const bad = await cli(["leave-out", "add", "小明"]);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /HTTP 400 输入无效：account/);
    assert.match((await cli(["leave-out", "remove", "qq:user:A"])).out, /已把 qq:user:A 移出不记录名单/);
  });
});

describe("settings", () => {
  it("get names the layer a value comes from; set sends JSON or text and prints before → after", async () => {
    stand.routes = {
      "GET /api/settings": [
        200,
        {
          effective: { retention: { groupDays: 30 }, calendar: { timeZone: "Asia/Shanghai" } },
          stored: { retention: { groupDays: 30 } },
          var: {},
        },
      ],
      "PATCH /api/settings": (b) => [200, { path: b.path, before: 90, after: b.value ?? 90, changed: true }],
    };
    assert.match(
      (await cli(["settings", "get", "retention.groupDays"])).out,
      /retention.groupDays = 30（来自存储层）/,
    );
    assert.match((await cli(["settings", "get", "calendar.timeZone"])).out, /来自默认值/);
    const missing = await cli(["settings", "get", "no.such"]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /没有设置 no.such/);
    assert.match(
      (await cli(["settings", "set", "retention.groupDays", "45"])).out,
      /retention.groupDays：90 → 45/,
    );
    assert.deepEqual(seen.at(-1).body, { path: "retention.groupDays", value: 45 });
    await cli(["settings", "set", "calendar.timeZone", "Asia/Tokyo"]);
    assert.deepEqual(seen.at(-1).body, { path: "calendar.timeZone", value: "Asia/Tokyo" });
    await cli(["settings", "unset", "retention.groupDays"]);
    assert.deepEqual(seen.at(-1).body, { path: "retention.groupDays", unset: true });
    const count = seen.length;
    const bad = await cli(["settings", "set", "bad path", "1"]);
    assert.equal(bad.code, 2);
    assert.equal(seen.length, count, "a bad path is refused before any request");
  });
});

describe("doctor", () => {
  it("prints each check with the command that fixes it, and exits 1 when something is missing", async () => {
    stand.routes = {
      "GET /healthz": [200, { ok: true }],
      "GET /api/doctor": [
        200,
        {
          checks: [
            { id: "secrets", ok: true, detail: "必需的密钥已设置" },
            { id: "migrations", ok: true, detail: "", data: { applied: ["0001_init.sql"] } },
            { id: "admins", ok: false, detail: "还没有管理员", fix: "npm run akasha -- admins claim" },
          ],
        },
      ],
    };
    const r = await cli(["doctor", "--no-model"]);
    assert.equal(r.code, 1);
    assert.match(r.out, /✓ 密钥：必需的密钥已设置/);
    assert.match(r.out, /✗ 迁移：\d+ 个迁移未应用/);
    assert.match(r.out, /修复：npm run db:apply:local/);
    assert.match(r.out, /✗ 管理员：还没有管理员\n {4}修复：npm run akasha -- admins claim/);
    // The stand-in has no webhook route: 404 to an unsigned request is not a verifying webhook.
    assert.match(r.out, /✗ Webhook：\/webhook\/qq 对未签名的请求回答了 404/);
    assert.equal(seen.find((s) => s.path === "/api/doctor").query, "?model=0");
  });

  it("its checks decide from what they are given", () => {
    assert.equal(migrationsCheck(["a.sql", "b.sql"], ["a.sql", "b.sql"], false).ok, true);
    assert.equal(migrationsCheck(["a.sql"], ["a.sql", "b.sql"], false).fix, "npm run db:apply:remote");
    assert.equal(webhookCheck(401).ok, true);
    assert.equal(webhookCheck(200).ok, false);
    assert.equal(webhookCheck(null).ok, false);
    const full = JSON.stringify(
      ["scope_type", "scope_id", "collection", "node_type", "sensitivity"]
        .map((p) => ({ propertyName: p, indexType: "String" }))
        .concat([{ propertyName: "portable", indexType: "Boolean" }]),
    );
    assert.equal(metadataCheck("idx", full).ok, true);
    const partial = metadataCheck(
      "idx",
      JSON.stringify([{ propertyName: "scope_type", indexType: "String" }]),
    );
    assert.equal(partial.ok, false);
    assert.match(partial.fix, /create-metadata-index idx --propertyName=portable --type=boolean/);
    assert.equal(metadataCheck("idx", "not json").ok, false);
    assert.match(renderDoctor({ url: "u", checks: [{ id: "follow", ok: true, detail: "x" }] }), /一切就绪/);
  });

  it("says each check in the chosen language from its code; --json keeps the Chinese detail", () => {
    const checks = [
      {
        id: "admins",
        ok: false,
        detail: "还没有管理员",
        code: "admins.none",
        fix: "npm run akasha -- admins claim",
      },
      {
        id: "follow",
        ok: true,
        detail: "关注的群：qq:group:1",
        code: "follow.listed",
        params: { groups: "qq:group:1", unfollowed: "qq:group:2" },
      },
      { id: "future", ok: true, detail: "新的检查", code: "future.thing" },
      webhookCheck(200),
    ];
    const zh = renderDoctor({ url: "u", checks });
    assert.match(
      zh,
      /^✗ 管理员：还没有管理员：所有管理命令都会被拒绝\n {4}修复：npm run akasha -- admins claim（然后私聊机器人/m,
    );
    assert.match(zh, /^✓ 关注的群：关注的群：qq:group:1；见过但未关注：qq:group:2$/m);
    assert.match(zh, /^✓ future：新的检查$/m);
    assert.match(zh, /^2 项需要处理。$/m);
    setLang("en");
    try {
      const english = renderDoctor({ url: "u", checks });
      assert.match(
        english,
        /^✗ admins: no admins yet: every admin command is refused\n {4}fix: npm run akasha -- admins claim \(then/m,
      );
      assert.match(
        english,
        /^✓ followed groups: followed groups: qq:group:1; seen but not followed: qq:group:2$/m,
      );
      assert.match(
        english,
        /^✗ webhook: \/webhook\/qq answered an unsigned request with 200 \(should be 401\)$/m,
      );
      assert.match(english, /^2 to fix\.$/m);
      // A check made by the CLI is data in Chinese, whatever the language, like the Worker's.
      assert.equal(webhookCheck(200).detail, "/webhook/qq 对未签名的请求回答了 200（应为 401）");
      assert.match(webhookCheck(200).fix, /然后 npm run deploy/);
    } finally {
      setLang("zh-CN");
    }
  });
});

describe("status", () => {
  it("names each embedding model and its counts in Chinese, never [object Object]", () => {
    const text = renderStatus({
      url: "http://w",
      healthy: true,
      healthzMs: 3,
      stats: { chats: 1, messages: 2, memoryByKind: [], kbNodes: 0, auditRows: 0, databaseBytes: 2048 },
      spend: null,
      embeddings: {
        models: [
          {
            key: "local",
            model: { id: "local-hash", version: "1-512", dims: 512 },
            index: "brute-force (D1)",
            read: true,
            embedded: 5,
            missing: 1,
            synced: 4,
          },
        ],
      },
    });
    assert.doesNotMatch(text, /object Object/);
    assert.match(
      text,
      /向量嵌入 local（local-hash@1-512, 512 维，brute-force \(D1\)，读取中）：已嵌入 5，缺向量 1，已同步到索引 4/,
    );
  });
});
