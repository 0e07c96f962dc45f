// Own file: it changes the stored settings and the login failures, which every test of a file shares.
/**
 * A missing or unknown value means production. Only AKASHA_ENV exactly "local" opens the dev
 * wing and the local conveniences; a missing secret never means "accept unsigned" or "accept
 * any admin"; headers cannot claim a local or admin caller; a settings document or
 * AKASHA_CONFIG that is invalid anywhere is refused whole, and never widens what is stored.
 * Every refusal is checked against D1 and the chat objects before and after, and every group
 * of refusals has a control that is accepted, so the refusals can fail.
 */
import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, it } from "vitest";
import { countingD1 } from "../../src/adapters/d1/counting-d1";
import { signOneBotBody } from "../../src/adapters/onebot/onebot-signature";
import devDefaults from "../../src/composition/dev-defaults.json";
import { settingsCache } from "../../src/composition/settings/settings-cache";
import { loadSettings } from "../../src/composition/settings/settings-loader";
import { ConfigError, modeOf, readRuntimeConfig } from "../../src/composition/shared/runtime-config";
import { DEFAULT_SETTINGS, isStored, resolveSettings } from "../../src/domain/config/settings";
import { createApp } from "../../src/workers/app";
import { csrfToken } from "../../src/workers/auth/csrf";
import { issueLogin, LOGIN_COOKIE } from "../../src/workers/auth/login-cookie";
import { zhCN } from "../../src/workers/dashboard/i18n/catalogue-zh";
import { signedOneBotRequest } from "../support/onebot-signing";
import {
  c2cBody,
  eventIdOf,
  groupAtBody,
  messageRows,
  TEST_APP_ID,
  TEST_SECRET,
  turnDone,
} from "../support/qq-events";
import { signedQqRequest } from "../support/qq-signing";
import { storedSettings } from "../support/stored-settings";
import { eventually } from "../support/wait";

const app = createApp();
const ORIGIN = "https://bot.test";
/**
 * Production refuses a short or published ADMIN_TOKEN (admin-token.ts), so these bindings
 * carry a long random one, made here so that the repository shows none.
 */
const TOKEN = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
const ONEBOT_SECRET = "onebot-test-secret";
const SELF = 10000;

/** Values of AKASHA_ENV that are not exactly "local", strings and otherwise. */
const NOT_LOCAL: readonly [string, unknown][] = [
  ["(missing)", undefined],
  ['""', ""],
  ['" "', " "],
  ['"LOCAL"', "LOCAL"],
  ['"Local"', "Local"],
  ['" local"', " local"],
  ['"local "', "local "],
  ['"local\\n"', "local\n"],
  ['"\\u200blocal"', "\u200blocal"],
  ['"locals"', "locals"],
  ['"localhost"', "localhost"],
  ['"dev"', "dev"],
  ['"development"', "development"],
  ['"test"', "test"],
  ['"staging"', "staging"],
  ['"prod"', "prod"],
  ['"production "', "production "],
  ['"true"', "true"],
  ["true", true],
  ["1", 1],
  ['["local"]', ["local"]],
  ['{"local":true}', { local: true }],
  ['String("local") object', new String("local")],
];

/** The test Worker's bindings with AKASHA_ENV replaced (or removed) and `extra` over them. */
function withMode(value: unknown, extra: Record<string, unknown> = {}): Env {
  const { AKASHA_ENV: _unused, ...rest } = { ...env, ADMIN_TOKEN: TOKEN, ...extra } as Record<
    string,
    unknown
  >;
  return (value === undefined ? rest : { ...rest, AKASHA_ENV: value }) as unknown as Env;
}

/** Bindings with the named keys removed (a binding that was never set). */
function without(base: Env, ...names: string[]): Env {
  const copy = { ...base } as Record<string, unknown>;
  for (const name of names) delete copy[name];
  return copy as unknown as Env;
}

const PRODUCTION = withMode("production");
const LOCAL = withMode("local");

/** Headers a caller adds to look like a local or admin request. */
const CLAIMS: Record<string, string> = {
  host: "localhost:8787",
  "x-forwarded-for": "127.0.0.1",
  "x-real-ip": "127.0.0.1",
  "cf-connecting-ip": "127.0.0.1",
  forwarded: "for=127.0.0.1;host=localhost;proto=http",
  "x-forwarded-host": "localhost",
  origin: "http://localhost:8787",
  "sec-fetch-site": "same-origin",
  "x-akasha-env": "local",
  "x-admin": "true",
  "cf-access-authenticated-user-email": "owner@example.com",
};
const LOCAL_ORIGINS = ["http://localhost:8787", "http://127.0.0.1:8787", "http://[::1]:8787"];

const TABLES = [
  "messages",
  "chats",
  "audit_log",
  "settings",
  "nodes",
  "account_observations",
  "ops_log",
  "model_usage",
  "owner_plans",
] as const;

/** Row counts of the tables a request could write, the stored settings and the chat objects. */
async function snapshot() {
  const state: Record<string, unknown> = {};
  for (const table of TABLES) {
    state[table] = (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())?.n;
  }
  state.settingsText = await storedSettings(env).read();
  state.objects = (await listDurableObjectIds(env.CHAT_SESSION)).length;
  return state;
}

/** Waits until a chat's turn is done and its object has flushed everything to D1. */
async function settled(chatKey: string, eventId: string, rows: number) {
  await turnDone(chatKey, eventId);
  await eventually(async () => {
    const stats = await env.CHAT_SESSION.getByName(chatKey).stats();
    return stats.open === 0 && stats.unflushed === 0;
  });
  await eventually(async () => (await messageRows(chatKey)).length === rows, 10_000, `${rows} rows`);
}

const now = () => Math.floor(Date.now() / 1000);
const unique = () => crypto.randomUUID().replaceAll("-", "");
const oneBotUser = () => 100_000 + Math.floor(Math.random() * 900_000);

/** An X-Signature made with `secret`, or null where the runtime refuses such a key (an empty one). */
async function signatureWith(secret: string, body: string): Promise<string | null> {
  try {
    return await signOneBotBody(secret, body);
  } catch {
    return null;
  }
}

function oneBotPrivate(user: number, messageId: number, time = now()) {
  return JSON.stringify({
    time,
    self_id: SELF,
    post_type: "message",
    message_type: "private",
    sub_type: "friend",
    message_id: messageId,
    user_id: user,
    message: [{ type: "text", data: { text: "/ping" } }],
    raw_message: "/ping",
    font: 0,
    sender: { user_id: user, nickname: "小明" },
  });
}

const qqUrl = `${ORIGIN}/webhook/qq`;
const oneBotUrl = `${ORIGIN}/webhook/onebot`;
const signedQq = (body: string, options: { secret?: string; appId?: string; timestamp?: string } = {}) =>
  signedQqRequest(qqUrl, body, {
    secret: options.secret ?? TEST_SECRET,
    appId: options.appId ?? TEST_APP_ID,
    ...(options.timestamp ? { timestamp: options.timestamp } : {}),
  });
const unsignedOneBot = (body: string, headers: Record<string, string> = {}) =>
  new Request(oneBotUrl, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });

/** Every route of the dev wing the app registers, with parameters filled in. */
function devRoutes(): [string, string][] {
  const seen = new Set<string>();
  for (const route of createApp().routes) {
    if (!route.path.startsWith("/dev/") || route.method === "ALL") continue;
    seen.add(`${route.method} ${route.path.replace(/:[^/]+/g, "x")}`);
  }
  return [...seen].map((entry) => entry.split(" ") as [string, string]);
}

const storedRow = () =>
  env.DB.prepare("SELECT value, updated_by AS by FROM settings WHERE key = 'config'").first<{
    value: string;
    by: string;
  }>();

afterEach(async () => {
  await env.DB.prepare("DELETE FROM settings").run();
  await env.DB.prepare("DELETE FROM admin_login_failures").run();
  settingsCache.invalidate();
});

describe("unfollowed groups under a follow list that only looks like a wildcard", () => {
  it("stores nothing of a group that 'qq:group:*' seems to cover, yet stores a listed group", async ({
    expect,
  }) => {
    const followed = `GF${unique()}`;
    await storedSettings(env).write(
      JSON.stringify({ follow: { groups: ["qq:group:*", "onebot:group:*", `qq:group:${followed}`] } }),
      "test",
      Date.now(),
    );
    const unfollowed = `GU${unique()}`;
    const body = groupAtBody({ group: unfollowed, member: "M1", text: "/ping" });
    const res = await app.request(await signedQq(body), undefined, PRODUCTION);
    expect(res.status).toBe(200);
    const status = await turnDone(`qq:group:${unfollowed}`, eventIdOf(body));
    expect(status.replies).toEqual([{ text: "pong", state: "sent" }]);
    const chat = await eventually(
      async () =>
        (await env.DB.prepare("SELECT followed FROM chats WHERE chat_key = ?")
          .bind(`qq:group:${unfollowed}`)
          .first<{ followed: number }>()) ?? undefined,
    );
    expect(chat.followed).toBe(0);
    expect(await env.CHAT_SESSION.getByName(`qq:group:${unfollowed}`).stats()).toMatchObject({
      unflushed: 0,
    });
    expect(await messageRows(`qq:group:${unfollowed}`)).toEqual([]);

    // The control: the group named in the same list is stored, both directions.
    const listed = groupAtBody({ group: followed, member: "M1", text: "/ping" });
    expect((await app.request(await signedQq(listed), undefined, PRODUCTION)).status).toBe(200);
    await settled(`qq:group:${followed}`, eventIdOf(listed), 2);
  });

  it("treats wildcard-looking entries and unknown chat types as naming no other chat", ({ expect }) => {
    const resolved = resolveSettings({
      follow: { groups: ["qq:group:*", "onebot:group:*", "qq:channel:*"] },
    });
    expect(resolved.ok).toBe(true);
    if (!resolved.ok) return;
    expect(isStored(resolved.value, "qq:group:G1", "group")).toBe(false);
    expect(isStored(resolved.value, "onebot:group:123", "group")).toBe(false);
    expect(isStored(resolved.value, "qq:channel:C1", "channel")).toBe(false);
    expect(isStored(resolved.value, "qq:guild:X", "guild")).toBe(false);
    expect(isStored(resolved.value, "qq:group:*", "group")).toBe(true);
    // A missing follow list follows nothing; private chats are always stored.
    expect(isStored(DEFAULT_SETTINGS, "qq:group:G1", "group")).toBe(false);
    expect(isStored(DEFAULT_SETTINGS, "qq:private:U1", "private")).toBe(true);
  });
});

describe("mode selection", () => {
  it.for(NOT_LOCAL)(
    "AKASHA_ENV %s is production in every part of the runtime config",
    ([, value], { expect }) => {
      expect(modeOf(value)).toBe("production");
      for (const outbound of [undefined, "", "off", "recorded", "record"]) {
        const config = readRuntimeConfig(withMode(value, { QQ_OUTBOUND: outbound }));
        expect(config.mode).toBe("production");
        // Production sends real replies whatever QQ_OUTBOUND says; recording is a local convenience.
        expect(config.qq.liveOutbound, String(outbound)).toBe(true);
      }
      // The statement-counting D1 wrapper of the benches exists only in local mode.
      expect(() => countingD1(env.DB, readRuntimeConfig(withMode(value)).mode)).toThrow(/local mode only/);
      // No dev default fills a missing, empty or blank secret. A missing ADMIN_TOKEN closes the
      // admin routes alone: the config reads, and reading the token throws (admin-token.ts).
      for (const name of ["QQ_BOT_APPID", "QQ_BOT_SECRET", "ADMIN_TOKEN"]) {
        for (const missing of [undefined, "", "   ", "\n"]) {
          const bindings =
            missing === undefined ? without(withMode(value), name) : withMode(value, { [name]: missing });
          const read =
            name === "ADMIN_TOKEN"
              ? () => readRuntimeConfig(bindings).adminToken
              : () => readRuntimeConfig(bindings);
          expect(read, `${name}=${JSON.stringify(missing)}`).toThrow(ConfigError);
          expect(read).toThrow(name);
        }
      }
      // A missing ONEBOT_SECRET stays missing: nothing is filled in for it either.
      expect(readRuntimeConfig(without(withMode(value), "ONEBOT_SECRET")).onebot.secret).toBeNull();
      expect(readRuntimeConfig(withMode(value, { ONEBOT_SECRET: "  " })).onebot.secret).toBeNull();
    },
  );

  it("fills the dev defaults and records replies only for exactly 'local' (the control)", ({ expect }) => {
    const config = readRuntimeConfig(withMode("local", { QQ_BOT_SECRET: "", ADMIN_TOKEN: "" }));
    expect(config.mode).toBe("local");
    expect(config.adminToken).toBe(devDefaults.ADMIN_TOKEN);
    expect(config.qq.secret).toBe(devDefaults.QQ_BOT_SECRET);
    expect(config.qq.liveOutbound).toBe(false);
    expect(() => countingD1(env.DB, config.mode)).not.toThrow();
  });

  it.for([
    ["padded with spaces", (s: string) => ` ${s} `],
    ["with a trailing newline", (s: string) => `${s}\n`],
    ["with a leading tab", (s: string) => `\t${s}`],
  ] as const)("refuses the published dev secrets %s", ([, pad], { expect }) => {
    for (const [, value] of NOT_LOCAL) {
      const admin = withMode(value, { ADMIN_TOKEN: pad(devDefaults.ADMIN_TOKEN) });
      expect(() => readRuntimeConfig(admin).adminToken).toThrow(/ADMIN_TOKEN is the published dev default/);
      const qq = withMode(value, { QQ_BOT_SECRET: pad(devDefaults.QQ_BOT_SECRET) });
      expect(() => readRuntimeConfig(qq)).toThrow(/QQ_BOT_SECRET is the published dev default/);
    }
    // Local mode takes them, padded or not.
    expect(
      readRuntimeConfig(withMode("local", { ADMIN_TOKEN: pad(devDefaults.ADMIN_TOKEN) })).adminToken,
    ).toBe(devDefaults.ADMIN_TOKEN);
  });
});

describe("local-only routes", () => {
  it("has a dev wing to find (the premise)", ({ expect }) => {
    const routes = devRoutes().map(([m, p]) => `${m} ${p}`);
    expect(routes).toContain("POST /dev/message");
    expect(routes).toContain("POST /dev/bench/memory/settings");
    expect(routes.length).toBeGreaterThan(10);
  });

  it.for(NOT_LOCAL)(
    "AKASHA_ENV %s serves no /dev route, whatever the request claims",
    async ([, value], { expect }) => {
      const bindings = withMode(value);
      const before = await snapshot();
      for (const [method, path] of devRoutes()) {
        for (const origin of [ORIGIN, ...LOCAL_ORIGINS]) {
          const body =
            method === "GET" || method === "HEAD"
              ? undefined
              : JSON.stringify({ identity: { admins: ["qq:user:ATTACKER"] } });
          const res = await app.request(
            `${origin}${path}`,
            { method, body, headers: { "content-type": "application/json", ...CLAIMS, origin } },
            bindings,
          );
          expect(res.status, `${method} ${origin}${path}`).toBe(404);
        }
      }
      expect(await snapshot()).toEqual(before);
    },
  );

  it.for([
    "/dev",
    "/dev/",
    "/dev/message/",
    "/dev//message",
    "/%64ev/message",
    "/dev%2Fmessage",
    "/dev/%6Dessage",
    "/DEV/message",
    "/Dev/message",
    // A dot-dot segment, joined so that the repository scan reads no path out of the tree.
    ["/api", "..", "dev/message"].join("/"),
    "/webhook/..%2F..%2Fdev/message",
  ])("answers %s with 404 in production", async (path, { expect }) => {
    const before = await snapshot();
    for (const [, value] of NOT_LOCAL) {
      const res = await app.request(
        `http://localhost:8787${path}`,
        {
          method: "POST",
          headers: { "content-type": "application/json", ...CLAIMS },
          body: JSON.stringify({ chat: "qq:group:G1", text: "/ping" }),
        },
        withMode(value),
      );
      expect(res.status, JSON.stringify(value)).toBe(404);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("serves every /dev route in local mode (the control)", async ({ expect }) => {
    for (const [method, path] of devRoutes()) {
      const body = method === "GET" || method === "HEAD" ? undefined : "[]";
      const res = await app.request(
        `http://localhost:8787${path}`,
        { method, body, headers: { "content-type": "application/json", ...CLAIMS } },
        LOCAL,
      );
      expect(res.status, `${method} ${path}`).not.toBe(404);
    }
    const res = await app.request(
      "http://localhost:8787/dev/message",
      {
        method: "POST",
        headers: { "content-type": "application/json", ...CLAIMS },
        body: JSON.stringify({ chat: "nonsense", text: "hi" }),
      },
      LOCAL,
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid", field: "chat" });
  });
});

describe("webhooks whatever the configuration", () => {
  it.for(NOT_LOCAL)(
    "AKASHA_ENV %s refuses unsigned OneBot events without ONEBOT_SECRET (403) and unsigned QQ events (401), changing nothing",
    async ([, value], { expect }) => {
      const before = await snapshot();
      for (const secret of [undefined, "", "   "]) {
        const bindings =
          secret === undefined
            ? without(withMode(value), "ONEBOT_SECRET")
            : withMode(value, { ONEBOT_SECRET: secret });
        const user = oneBotUser();
        const plain = oneBotPrivate(user, 1);
        const emptyKey = await signatureWith("", plain);
        const attempts = [
          unsignedOneBot(plain),
          unsignedOneBot(plain, CLAIMS),
          unsignedOneBot(plain, { "x-signature": "" }),
          unsignedOneBot(plain, { "x-signature": `sha1=${"0".repeat(40)}` }),
          ...(emptyKey === null ? [] : [unsignedOneBot(plain, { "x-signature": emptyKey })]),
        ];
        for (const request of attempts) {
          const res = await app.request(request, undefined, bindings);
          expect(res.status, `ONEBOT_SECRET=${JSON.stringify(secret)}`).toBe(403);
          expect(await res.text()).toBe("");
        }
      }
      const qqBody = c2cBody({ user: `U${unique()}`, text: "/ping" });
      const unsignedQq = [
        new Request(qqUrl, {
          method: "POST",
          headers: { "x-bot-appid": TEST_APP_ID, ...CLAIMS },
          body: qqBody,
        }),
        new Request(qqUrl, {
          method: "POST",
          headers: {
            "x-bot-appid": TEST_APP_ID,
            "x-signature-ed25519": "",
            "x-signature-timestamp": String(now()),
          },
          body: qqBody,
        }),
        await signedQq(qqBody, { secret: devDefaults.QQ_BOT_SECRET }),
      ];
      for (const request of unsignedQq) {
        const res = await app.request(request, undefined, withMode(value));
        expect(res.status).toBe(401);
        expect(await res.text()).toBe("");
      }
      // Another bot's app id, the published dev one included, or none at all.
      for (const appId of [devDefaults.QQ_BOT_APPID === TEST_APP_ID ? "999" : devDefaults.QQ_BOT_APPID, ""]) {
        const res = await app.request(await signedQq(qqBody, { appId }), undefined, withMode(value));
        expect(res.status, `appid ${appId}`).toBe(403);
      }
      expect(await snapshot()).toEqual(before);
    },
  );

  it.for(NOT_LOCAL)(
    "AKASHA_ENV %s without a QQ secret or app id refuses even a request signed with the dev defaults",
    async ([, value], { expect }) => {
      const before = await snapshot();
      const body = c2cBody({ user: `U${unique()}`, text: "/ping" });
      for (const name of ["QQ_BOT_SECRET", "QQ_BOT_APPID", "ADMIN_TOKEN"]) {
        for (const missing of [undefined, "", "  "]) {
          const bindings =
            missing === undefined ? without(withMode(value), name) : withMode(value, { [name]: missing });
          const forged = await signedQq(body, {
            secret: devDefaults.QQ_BOT_SECRET,
            appId: devDefaults.QQ_BOT_APPID,
          });
          const res = await app.request(forged, undefined, bindings);
          const unsigned = await app.request(
            unsignedOneBot(oneBotPrivate(oneBotUser(), 2)),
            undefined,
            bindings,
          );
          if (name === "ADMIN_TOKEN") {
            // The webhooks never read ADMIN_TOKEN, which closes the admin routes alone
            // (admin-token.ts): they verify as always and refuse the forgery for its signature.
            expect(res.status, `${name}=${JSON.stringify(missing)}`).toBe(401);
            expect(unsigned.status).toBe(401);
            continue;
          }
          expect(res.status, `${name}=${JSON.stringify(missing)}`).toBe(500);
          expect(await res.json()).toMatchObject({ error: "misconfigured" });
          expect(unsigned.status).toBe(500);
        }
      }
      expect(await snapshot()).toEqual(before);
    },
  );

  it("takes an unsigned OneBot event only in local mode without a secret (the control)", async ({
    expect,
  }) => {
    const user = oneBotUser();
    const plain = oneBotPrivate(user, 3);
    const prod = await app.request(unsignedOneBot(plain), undefined, without(PRODUCTION, "ONEBOT_SECRET"));
    expect(prod.status).toBe(403);
    const local = await app.request(unsignedOneBot(plain), undefined, without(LOCAL, "ONEBOT_SECRET"));
    expect(local.status).toBe(204);
    await settled(`onebot:private:${user}`, `onebot:${SELF}:msg:3`, 2);
  });

  it("checks the OneBot signature in production once the secret is set", async ({ expect }) => {
    const before = await snapshot();
    const user = oneBotUser();
    const plain = oneBotPrivate(user, 4);
    for (const header of [
      undefined,
      "",
      (await signatureWith("", plain)) ?? "sha1=",
      await signOneBotBody("wrong-secret", plain),
      await signOneBotBody(ONEBOT_SECRET, `${plain} `),
    ]) {
      const request = unsignedOneBot(plain, header === undefined ? {} : { "x-signature": header });
      const res = await app.request(request, undefined, PRODUCTION);
      expect(res.status, String(header)).toBe(401);
    }
    expect(await snapshot()).toEqual(before);
    const signed = await app.request(await signedOneBotRequest(oneBotUrl, plain), undefined, PRODUCTION);
    expect(signed.status).toBe(204);
    await settled(`onebot:private:${user}`, `onebot:${SELF}:msg:4`, 2);
  });

  it("gives the local timing header on a local ACK only", async ({ expect }) => {
    const prodUser = `U${unique()}`;
    const prodBody = c2cBody({ user: prodUser, text: "/ping" });
    const prod = await app.request(await signedQq(prodBody), undefined, PRODUCTION);
    expect(prod.status).toBe(200);
    expect(await prod.json()).toEqual({ op: 12, d: 0 });
    expect(prod.headers.get("server-timing")).toBeNull();
    await settled(`qq:private:${prodUser}`, eventIdOf(prodBody), 2);

    const unknownUser = `U${unique()}`;
    const unknownBody = c2cBody({ user: unknownUser, text: "/ping" });
    const unknown = await app.request(await signedQq(unknownBody), undefined, withMode("dev"));
    expect(unknown.status).toBe(200);
    expect(unknown.headers.get("server-timing")).toBeNull();
    await settled(`qq:private:${unknownUser}`, eventIdOf(unknownBody), 2);

    const localUser = `U${unique()}`;
    const localBody = c2cBody({ user: localUser, text: "/ping" });
    const local = await app.request(await signedQq(localBody), undefined, LOCAL);
    expect(local.status).toBe(200);
    expect(local.headers.get("server-timing")).not.toBeNull();
    await settled(`qq:private:${localUser}`, eventIdOf(localBody), 2);
  });

  const MALFORMED_CONFIG: readonly [string, string][] = [
    ["not JSON", "{"],
    ["a byte-order mark", '\uFEFF{"follow":{"groups":["*"]}}'],
    ["an array", "[]"],
    ["null", "null"],
    ["a number", "42"],
    ["a string", '"{}"'],
    ["an unknown section", '{"colour":"blue"}'],
    ["a follow list as a string", '{"follow":{"groups":"*"}}'],
    ["a follow entry 'all'", '{"follow":{"groups":["all"]}}'],
    ["a skew window of a day", '{"webhook":{"maxSkewSeconds":86400}}'],
    ["an infinite OneBot window", '{"webhook":{"oneBotMaxAgeSeconds":1e999}}'],
    ["a window as text", '{"webhook":{"maxSkewSeconds":"600"}}'],
    ["a null window", '{"webhook":{"oneBotMaxAgeSeconds":null}}'],
    ["soft scope as text", '{"memory":{"retrieval":{"softScope":"on"}}}'],
    ["an unknown read model", '{"knowledge":{"embeddings":{"read":"bge-m4"}}}'],
    ["an unknown reranker provider", '{"knowledge":{"reranker":{"provider":"cohere","model":"x"}}}'],
    ["rerank as text", '{"knowledge":{"search":{"rerank":"yes"}}}'],
    ["identity on as text", '{"identity":{"enabled":"true"}}'],
  ];

  it.for(MALFORMED_CONFIG)(
    "an AKASHA_CONFIG with %s stops both webhooks and the settings API before any state changes",
    async ([, text], { expect }) => {
      const before = await snapshot();
      for (const value of ["production", undefined, "", "staging"]) {
        const bindings = withMode(value, { AKASHA_CONFIG: text });
        const qq = await app.request(
          await signedQq(c2cBody({ user: `U${unique()}`, text: "/ping" })),
          undefined,
          bindings,
        );
        expect(qq.status).toBe(500);
        // A replay far outside the default window is no more welcome.
        const stale = await app.request(
          await signedQq(c2cBody({ user: `U${unique()}`, text: "/ping" }), {
            timestamp: String(now() - 7200),
          }),
          undefined,
          bindings,
        );
        expect(stale.status).not.toBe(200);
        const oneBot = await app.request(
          await signedOneBotRequest(oneBotUrl, oneBotPrivate(oneBotUser(), 5, now() - 7200)),
          undefined,
          bindings,
        );
        expect(oneBot.status).not.toBe(204);
        const fresh = await app.request(
          await signedOneBotRequest(oneBotUrl, oneBotPrivate(oneBotUser(), 6)),
          undefined,
          bindings,
        );
        expect(fresh.status).toBe(500);
        const settings = await app.request(
          `${ORIGIN}/api/settings`,
          { headers: { authorization: `Bearer ${TOKEN}` } },
          bindings,
        );
        expect(settings.status).toBe(500);
        expect(await settings.json()).toMatchObject({ error: "misconfigured" });
        const dev = await app.request(
          `${ORIGIN}/dev/message`,
          { method: "POST", headers: { "content-type": "application/json" }, body: "{}" },
          bindings,
        );
        expect(dev.status).toBe(404);
      }
      await expect(loadSettings(withMode(undefined, { AKASHA_CONFIG: text }))).rejects.toThrow(ConfigError);
      expect(await snapshot()).toEqual(before);
    },
  );

  it("accepts the same signed events under a valid AKASHA_CONFIG, and its widest window (the control)", async ({
    expect,
  }) => {
    const bindings = withMode(undefined, {
      AKASHA_CONFIG: JSON.stringify({ webhook: { maxSkewSeconds: 43_200, oneBotMaxAgeSeconds: 43_200 } }),
    });
    const user = `U${unique()}`;
    const body = c2cBody({ user, text: "/ping" });
    const qq = await app.request(
      await signedQq(body, { timestamp: String(now() - 7200) }),
      undefined,
      bindings,
    );
    expect(qq.status).toBe(200);
    await settled(`qq:private:${user}`, eventIdOf(body), 2);
    const oneBot = oneBotUser();
    const res = await app.request(
      await signedOneBotRequest(oneBotUrl, oneBotPrivate(oneBot, 7, now() - 7200)),
      undefined,
      bindings,
    );
    expect(res.status).toBe(204);
    await settled(`onebot:private:${oneBot}`, `onebot:${SELF}:msg:7`, 2);
  });
});

describe("admin routes in production", () => {
  const ADMIN_CASES: readonly [string, unknown][] = [
    ["(missing)", undefined],
    ['""', ""],
    ['"LOCAL"', "LOCAL"],
    ['" local"', " local"],
    ['"dev"', "dev"],
    ['"development"', "development"],
    ['"test"', "test"],
    ['"staging"', "staging"],
    ['"production"', "production"],
  ];

  it.for(ADMIN_CASES)(
    "AKASHA_ENV %s refuses /api and /admin without a valid credential, whatever the request claims",
    async ([, value], { expect }) => {
      const bindings = withMode(value);
      const devCookie = (await issueLogin(devDefaults.ADMIN_TOKEN, Date.now())).value;
      const emptyKeyCookie = (await issueLogin("", Date.now())).value;
      const expired = (await issueLogin(TOKEN, Date.now() - 13 * 60 * 60 * 1000)).value;
      const credentials: [string, Record<string, string>][] = [
        ["nothing", {}],
        ["an empty authorization header", { authorization: "" }],
        ["a bare Bearer", { authorization: "Bearer" }],
        ["an empty bearer", { authorization: "Bearer " }],
        ["a blank bearer", { authorization: "Bearer    " }],
        ["the published dev token", { authorization: `Bearer ${devDefaults.ADMIN_TOKEN}` }],
        ["a token prefix", { authorization: `Bearer ${TOKEN.slice(0, -1)}` }],
        ["a token with a suffix", { authorization: `Bearer ${TOKEN}x` }],
        ["the token as Basic", { authorization: `Basic ${btoa(`admin:${TOKEN}`)}` }],
        ["the token without a scheme", { authorization: TOKEN }],
        ["an empty cookie", { cookie: `${LOGIN_COOKIE}=` }],
        ["a garbage cookie", { cookie: `${LOGIN_COOKIE}=garbage` }],
        ["a cookie of the published dev token", { cookie: `${LOGIN_COOKIE}=${devCookie}` }],
        ["a cookie of an empty token", { cookie: `${LOGIN_COOKIE}=${emptyKeyCookie}` }],
        ["an expired cookie", { cookie: `${LOGIN_COOKIE}=${expired}` }],
        ["an Access assertion while Access is off", { "cf-access-jwt-assertion": "e30.e30.e30" }],
      ];
      const before = await snapshot();
      for (const [what, headers] of credentials) {
        for (const origin of [ORIGIN, ...LOCAL_ORIGINS]) {
          // Each refusal here must be for the credential itself, not for the wrong tokens before
          // it: the admin door's throttle has its own tests (tests/workers/auth/admin-door.test.ts).
          await env.DB.prepare("DELETE FROM admin_login_failures").run();
          const all = { ...CLAIMS, origin, ...headers };
          const api = await app.request(`${origin}/api/chats`, { headers: all }, bindings);
          expect(api.status, `GET /api/chats with ${what}`).toBe(401);
          const put = await app.request(
            `${origin}/api/settings`,
            {
              method: "PUT",
              headers: { ...all, "content-type": "application/json" },
              body: JSON.stringify({ follow: { groups: ["*"] }, memory: { retrieval: { softScope: true } } }),
            },
            bindings,
          );
          expect(put.status, `PUT /api/settings with ${what}`).toBe(401);
          const page = await app.request(`${origin}/admin/settings`, { headers: all }, bindings);
          expect(page.status, `GET /admin/settings with ${what}`).toBe(303);
          expect(page.headers.get("location")).toBe("/admin/login");
          const post = await app.request(
            `${origin}/admin/settings`,
            {
              method: "POST",
              headers: { ...all, "content-type": "application/x-www-form-urlencoded" },
              body: new URLSearchParams({ stored: '{"follow":{"groups":["*"]}}', fresh: "1" }).toString(),
            },
            bindings,
          );
          expect(post.status, `POST /admin/settings with ${what}`).toBe(401);
        }
      }
      expect(await snapshot()).toEqual(before);

      // The controls: the real token and a session of the real token are let in.
      const bearer = await app.request(
        "/api/chats",
        { headers: { authorization: `Bearer ${TOKEN}` } },
        bindings,
      );
      expect(bearer.status).toBe(200);
      const session = (await issueLogin(TOKEN, Date.now())).value;
      const cookie = await app.request(
        "/admin/settings",
        { headers: { cookie: `${LOGIN_COOKIE}=${session}` } },
        bindings,
      );
      expect(cookie.status).toBe(200);
    },
  );

  it("signs no one in with the published dev token, and none at all without ADMIN_TOKEN", async ({
    expect,
  }) => {
    const form = (token: string, ip: string) => ({
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "cf-connecting-ip": ip,
        "x-forwarded-for": "127.0.0.1",
        origin: ORIGIN,
      },
      body: new URLSearchParams({ token }).toString(),
    });
    for (const [, value] of ADMIN_CASES) {
      const refused = await app.request(
        `${ORIGIN}/admin/login`,
        form(devDefaults.ADMIN_TOKEN, "203.0.113.10"),
        withMode(value),
      );
      expect(refused.status).toBe(401);
      expect(refused.headers.get("set-cookie")).toBeNull();
      for (const missing of [undefined, "", "   "]) {
        const bindings =
          missing === undefined
            ? without(withMode(value), "ADMIN_TOKEN")
            : withMode(value, { ADMIN_TOKEN: missing });
        for (const token of ["", " ", devDefaults.ADMIN_TOKEN]) {
          const res = await app.request(`${ORIGIN}/admin/login`, form(token, "203.0.113.11"), bindings);
          expect(res.status, `ADMIN_TOKEN=${JSON.stringify(missing)} token=${JSON.stringify(token)}`).toBe(
            500,
          );
          expect(res.headers.get("set-cookie")).toBeNull();
        }
        const api = await app.request(
          "/api/chats",
          { headers: { authorization: `Bearer ${devDefaults.ADMIN_TOKEN}` } },
          bindings,
        );
        expect(api.status).toBe(500);
        const page = await app.request("/admin", {}, bindings);
        expect(page.status).toBe(500);
      }
      await env.DB.prepare("DELETE FROM admin_login_failures").run();
    }
    // The control: the real token signs in, in production.
    const ok = await app.request(`${ORIGIN}/admin/login`, form(TOKEN, "203.0.113.12"), PRODUCTION);
    expect(ok.status).toBe(303);
    expect(ok.headers.get("set-cookie")).toContain(`${LOGIN_COOKIE}=`);
  });

  it("refuses everything when Access is configured by half, blanks included", async ({ expect }) => {
    for (const [team, aud] of [
      ["team.cloudflareaccess.com", ""],
      ["team.cloudflareaccess.com", "   "],
      ["", "aud-tag"],
      ["  ", "aud-tag"],
    ]) {
      const bindings = withMode(undefined, { ACCESS_TEAM_DOMAIN: team, ACCESS_AUD: aud });
      const res = await app.request(
        "/api/chats",
        { headers: { authorization: `Bearer ${TOKEN}` } },
        bindings,
      );
      expect(res.status, `${team}|${aud}`).toBe(500);
      expect(await res.json()).toMatchObject({ error: "misconfigured" });
    }
    // Both blank is Access off: the token works (the control).
    const off = withMode(undefined, { ACCESS_TEAM_DOMAIN: " ", ACCESS_AUD: "" });
    const res = await app.request("/api/chats", { headers: { authorization: `Bearer ${TOKEN}` } }, off);
    expect(res.status).toBe(200);
  });

  it("takes no settings change from a session cookie without its CSRF token", async ({ expect }) => {
    const { value, session } = await issueLogin(TOKEN, Date.now());
    const cookie = `${LOGIN_COOKIE}=${value}`;
    const document = JSON.stringify({ follow: { groups: ["*"] } });
    for (const csrf of [
      undefined,
      "",
      "forged",
      await csrfToken(devDefaults.ADMIN_TOKEN, `session:${session.sid}`),
    ]) {
      const headers: Record<string, string> = { cookie, "content-type": "application/json", ...CLAIMS };
      if (csrf !== undefined) headers["x-csrf-token"] = csrf;
      const res = await app.request(
        `${ORIGIN}/api/settings`,
        { method: "PUT", headers, body: document },
        withMode(undefined),
      );
      expect(res.status, String(csrf)).toBe(403);
    }
    expect(await storedRow()).toBeNull();
    const res = await app.request(
      `${ORIGIN}/api/settings`,
      {
        method: "PUT",
        headers: {
          cookie,
          "content-type": "application/json",
          "x-csrf-token": await csrfToken(TOKEN, `session:${session.sid}`),
        },
        body: document,
      },
      withMode(undefined),
    );
    expect(res.status).toBe(200);
    expect(await storedRow()).toMatchObject({ value: document });
  });
});

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
