/**
 * A missing or unknown value means production (docs/invariants.md#privileged-actions-fail-closed).
 * Only AKASHA_ENV exactly "local" opens the dev wing and the local conveniences; a missing secret
 * never means "accept unsigned" or "accept any admin"; headers cannot claim a local or admin
 * caller; a settings document or AKASHA_CONFIG that is invalid anywhere is refused whole, and
 * never widens what is stored. Every refusal is checked against D1 and the chat objects before
 * and after, and every group of refusals has a control that is accepted, so the refusals can fail.
 *
 * This file: settings documents, stored or in AKASHA_CONFIG, that are invalid anywhere.
 *
 * Own file: it changes the stored settings and the login failures, which every test of a file
 * shares. The set-up the four unknown-values files share is tests/support/production-mode.ts.
 */
import { env } from "cloudflare:workers";
import { ConfigError } from "@src/composition/common/runtime-config";
import { loadSettings } from "@src/composition/settings/settings-loader";
import { DEFAULT_SETTINGS, isStored } from "@src/domain/config/settings";
import { csrfToken } from "@src/workers/auth/csrf";
import { issueLogin, LOGIN_COOKIE } from "@src/workers/auth/login-cookie";
import { zhCN } from "@src/workers/dashboard/i18n/catalogue-zh";
import { afterEach, describe, it } from "vitest";
import {
  app,
  clearStoredSettings,
  now,
  ORIGIN,
  PRODUCTION,
  signedQq,
  snapshot,
  storedRow,
  TOKEN,
  unique,
  withMode,
  without,
} from "../support/production-mode";
import { c2cBody } from "../support/qq-events";
import { storedSettings } from "../support/stored-settings";

afterEach(clearStoredSettings);

describe("settings documents", () => {
  const put = (body: string, bindings: Env = PRODUCTION) =>
    app.request(
      `${ORIGIN}/api/settings`,
      {
        method: "PUT",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body,
      },
      bindings,
    );
  const BEFORE = JSON.stringify({ retention: { groupDays: 45 } });

  const INVALID: readonly [string, unknown, string, string][] = [
    [
      "soft scope as text",
      { memory: { retrieval: { softScope: "true" } } },
      "memory.retrieval.softScope",
      "",
    ],
    ["soft scope as 1", { memory: { retrieval: { softScope: 1 } } }, "memory.retrieval.softScope", ""],
    ["soft scope null", { memory: { retrieval: { softScope: null } } }, "memory.retrieval.softScope", ""],
    [
      "a soft-scope mode",
      { memory: { retrieval: { softScope: true, mode: "soft" } } },
      "memory.retrieval",
      "unknown setting 'mode'",
    ],
    [
      "an unknown read model",
      { knowledge: { embeddings: { read: "bge-m4" } } },
      "knowledge.embeddings.read",
      "",
    ],
    [
      "an unknown write model",
      { knowledge: { embeddings: { write: ["local", "ghost"] } } },
      "knowledge.embeddings.write.1",
      "",
    ],
    [
      "an unknown embedding provider",
      {
        knowledge: {
          embeddings: { models: { x: { provider: "remote", model: "m", version: "1", dims: 8 } } },
        },
      },
      "knowledge.embeddings.models.x.provider",
      "",
    ],
    [
      "an unknown reranker provider",
      { knowledge: { reranker: { provider: "cohere", model: "m" } } },
      "knowledge.reranker.provider",
      "",
    ],
    ["rerank as text", { knowledge: { search: { rerank: "yes" } } }, "knowledge.search.rerank", ""],
    ["auto recall as 1", { knowledge: { autoRecall: { enabled: 1 } } }, "knowledge.autoRecall.enabled", ""],
    ["a follow list as a string", { follow: { groups: "*" } }, "follow.groups", ""],
    ["a follow entry 'all'", { follow: { groups: ["all"] } }, "follow.groups.0", ""],
    ["an upper-case follow entry", { follow: { groups: ["QQ:GROUP:G1"] } }, "follow.groups.0", ""],
    ["a padded follow entry", { follow: { groups: [" qq:group:G1"] } }, "follow.groups.0", ""],
    ["a padded wildcard", { follow: { groups: [" * "] } }, "follow.groups.0", ""],
    [
      "an unknown follow list",
      { follow: { groups: [], channels: ["*"] } },
      "follow",
      "unknown setting 'channels'",
    ],
    ["follow null", { follow: null }, "follow", ""],
    ["too many retention days", { retention: { groupDays: 3651 } }, "retention.groupDays", ""],
    ["fractional retention days", { retention: { privateDays: 1.5 } }, "retention.privateDays", ""],
    ["negative retention days", { retention: { groupDays: -1 } }, "retention.groupDays", ""],
    ["nine tool rounds", { turn: { maxToolRounds: 9 } }, "turn.maxToolRounds", ""],
    [
      "an importance over 1",
      { memory: { mandatory: { minImportance: 1.01 } } },
      "memory.mandatory.minImportance",
      "",
    ],
    ["an empty flush batch", { outbox: { flushBatchRows: 0 } }, "outbox.flushBatchRows", ""],
    ["a zero spend cap", { spend: { chatDailyTokens: 0 } }, "spend.chatDailyTokens", ""],
    [
      "an 'unlimited' spend cap",
      { spend: { globalDailyTokens: "unlimited" } },
      "spend.globalDailyTokens",
      "",
    ],
    ["an unknown time zone", { calendar: { timeZone: "Mars/Olympus" } }, "calendar.timeZone", ""],
    ["a renamed time zone key", { spend: { timeZone: "UTC" } }, "spend", "unknown setting 'timeZone'"],
    ["an empty webhook section", { webhook: {} }, "webhook", ""],
    ["identity on as text", { identity: { enabled: "false" } }, "identity.enabled", ""],
    ["an unknown identity key", { identity: { enabled: true, superusers: ["*"] } }, "identity", ""],
    ["a wildcard admin", { identity: { enabled: true, admins: ["*"] } }, "identity.admins.0", ""],
    ["an unknown section", { mode: "local" }, "(root)", "unknown setting 'mode'"],
    ["a query rewrite mode", { queryRewrite: { mode: "always" } }, "queryRewrite", "unknown setting 'mode'"],
  ];

  it.for(INVALID)(
    "refuses %s whole: nothing stored, nothing of it applied",
    async ([, bad, field, reason], { expect }) => {
      expect((await put(BEFORE)).status).toBe(200);
      const row = await storedRow();
      const before = await snapshot();
      // The invalid part arrives next to valid changes, which must not be applied either.
      const mixed = { retention: { groupDays: 30 }, turn: { recentTurns: 2 }, ...(bad as object) };
      for (const document of [bad, mixed]) {
        const res = await put(JSON.stringify(document));
        expect(res.status, JSON.stringify(document)).toBe(400);
        const answer = (await res.json()) as { error: string; field: string; reason: string };
        expect(answer).toMatchObject({ error: "invalid", field });
        if (reason) expect(answer.reason).toContain(reason);
      }
      expect(await storedRow()).toEqual(row);
      expect(await snapshot()).toEqual(before);
      const loaded = await loadSettings(PRODUCTION);
      expect(loaded.retention.groupDays).toBe(45);
      expect(loaded.turn.recentTurns).toBe(DEFAULT_SETTINGS.turn.recentTurns);
      expect(loaded.memory.retrieval.softScope).toBe(false);
      expect(loaded.identity.enabled).toBe(false);
    },
  );

  it.for([
    ["an empty __proto__ section", '{"__proto__":{}}'],
    ["an out-of-range value under __proto__", '{"__proto__":{"retention":{"groupDays":0}}}'],
    [
      "a valid change next to a wrong type under __proto__",
      '{"retention":{"groupDays":30},"__proto__":{"memory":{"retrieval":{"softScope":"yes"}}}}',
    ],
    ["a nested __proto__ with an out-of-range value", '{"retention":{"__proto__":{"groupDays":0}}}'],
  ] as const)("refuses a document with %s, storing and applying nothing", async ([, text], { expect }) => {
    expect((await put(BEFORE)).status).toBe(200);
    const row = await storedRow();
    const res = await put(text);
    expect.soft(res.status).toBe(400);
    expect.soft(await storedRow()).toEqual(row);
    expect.soft((await loadSettings(PRODUCTION)).retention.groupDays).toBe(45);
  });

  it.for([
    ["an empty __proto__ section", '{"__proto__":{}}'],
    ["a follow list as a string under __proto__", '{"__proto__":{"follow":{"groups":"*"}}}'],
  ] as const)("refuses an AKASHA_CONFIG with %s", async ([, text], { expect }) => {
    await expect(loadSettings(withMode(undefined, { AKASHA_CONFIG: text }))).rejects.toThrow(ConfigError);
  });

  it("saves nothing from the dashboard form when one field is invalid", async ({ expect }) => {
    const { value, session } = await issueLogin(TOKEN, Date.now());
    const csrf = await csrfToken(TOKEN, `session:${session.sid}`);
    const post = (stored: string) =>
      app.request(
        `${ORIGIN}/admin/settings`,
        {
          method: "POST",
          headers: {
            cookie: `${LOGIN_COOKIE}=${value}`,
            "content-type": "application/x-www-form-urlencoded",
            "x-csrf-token": csrf,
          },
          body: new URLSearchParams({ stored, fresh: "1" }).toString(),
        },
        PRODUCTION,
      );
    const before = await snapshot();
    for (const stored of [
      '{"follow":{"groups":["*"]},"memory":{"retrieval":{"softScope":"yes"}}}',
      '{"retention":{"groupDays":30},"knowledge":{"embeddings":{"read":"ghost"}}}',
      '{"retention":{"groupDays":30},"webhook":{"maxSkewSeconds":600}}',
      "[]",
      "{",
    ]) {
      const res = await post(stored);
      expect(await res.text(), stored).not.toContain(zhCN["common.saved"]);
      expect(await storedRow(), stored).toBeNull();
    }
    expect(await snapshot()).toEqual(before);
    // The control: a valid document is saved.
    const saved = await post('{"retention":{"groupDays":30}}');
    // The dashboard speaks Chinese unless asked otherwise, so the confirmation is the catalogue's.
    expect(await saved.text()).toContain(zhCN["common.saved"]);
    expect(await storedRow()).toMatchObject({ value: '{"retention":{"groupDays":30}}' });
  });

  it.for([
    ["not JSON", "{"],
    ["JSON null", "null"],
    ["an array", '[{"follow":{"groups":["*"]}}]'],
    [
      "a follow-all next to a bad soft scope",
      '{"follow":{"groups":["*"]},"memory":{"retrieval":{"softScope":"yes"}}}',
    ],
    [
      "identity with admins next to an unknown key",
      '{"identity":{"enabled":true,"admins":["qq:user:A"]},"follow":{"groups":["*"]},"colour":1}',
    ],
    [
      "a follow-all next to a stored webhook window",
      '{"follow":{"groups":["*"]},"webhook":{"maxSkewSeconds":1}}',
    ],
  ] as const)(
    "ignores a stored row with %s whole: a missing AKASHA_CONFIG still follows no group",
    async ([, text], { expect }) => {
      const bindings = without(PRODUCTION, "AKASHA_CONFIG");
      await storedSettings(env).write(text, "test", Date.now());
      const loaded = await loadSettings(bindings);
      expect(loaded.follow.groups).toEqual([]);
      expect(isStored(loaded, "qq:group:G1", "group")).toBe(false);
      expect(loaded.identity).toEqual(DEFAULT_SETTINGS.identity);
      expect(loaded.memory.retrieval.softScope).toBe(false);
      const res = await app.request(
        "/api/settings",
        { headers: { authorization: `Bearer ${TOKEN}` } },
        bindings,
      );
      expect(res.status).toBe(200);
      const shown = (await res.json()) as {
        effective: typeof DEFAULT_SETTINGS;
        storedError?: { field: string };
      };
      expect(shown.effective.follow.groups).toEqual([]);
      expect(shown.storedError).toBeDefined();
    },
  );

  it("applies a valid stored row (the control)", async ({ expect }) => {
    const bindings = without(PRODUCTION, "AKASHA_CONFIG");
    await storedSettings(env).write('{"follow":{"groups":["*"]}}', "test", Date.now());
    const loaded = await loadSettings(bindings);
    expect(loaded.follow.groups).toEqual(["*"]);
  });

  it.for([
    ["missing", undefined],
    ["empty", ""],
    ["blank", "  \n "],
  ] as const)("an AKASHA_CONFIG that is %s sets production defaults only", async ([, value], { expect }) => {
    const bindings =
      value === undefined
        ? without(PRODUCTION, "AKASHA_CONFIG")
        : withMode("production", { AKASHA_CONFIG: value });
    const loaded = await loadSettings(bindings);
    expect(loaded).toEqual(DEFAULT_SETTINGS);
    expect(isStored(loaded, "qq:group:G1", "group")).toBe(false);
    expect(loaded.webhook).toEqual({
      maxBodyBytes: 256 * 1024,
      maxSkewSeconds: 600,
      oneBotMaxAgeSeconds: 600,
    });
    // A QQ request two hours old is refused under those defaults, before any state changes.
    const before = await snapshot();
    const stale = await app.request(
      await signedQq(c2cBody({ user: `U${unique()}`, text: "/ping" }), { timestamp: String(now() - 7200) }),
      undefined,
      bindings,
    );
    expect(stale.status).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  // A TOML table under [vars] arrives as an object: read as "no settings", the owner's follow
  // list, identity and limits would be dropped without a word.
  it.for([
    ["an object instead of text", { follow: { groups: ["*"] }, identity: { enabled: true } }],
    ["a number instead of text", 1],
    ["a list instead of text", ["{}"]],
  ] as const)(
    "an AKASHA_CONFIG that is %s stops the Worker before any state changes",
    async ([, value], { expect }) => {
      const bindings = withMode("production", { AKASHA_CONFIG: value });
      await expect(loadSettings(bindings)).rejects.toThrow(ConfigError);
      const before = await snapshot();
      const response = await app.request(
        await signedQq(c2cBody({ user: `U${unique()}`, text: "/ping" })),
        undefined,
        bindings,
      );
      expect(response.status).toBe(500);
      expect(await snapshot()).toEqual(before);
    },
  );
});
