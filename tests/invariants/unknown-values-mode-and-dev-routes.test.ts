/**
 * A missing or unknown value means production (docs/invariants.md#privileged-actions-fail-closed).
 * Only AKASHA_ENV exactly "local" opens the dev wing and the local conveniences; a missing secret
 * never means "accept unsigned" or "accept any admin"; headers cannot claim a local or admin
 * caller; a settings document or AKASHA_CONFIG that is invalid anywhere is refused whole, and
 * never widens what is stored. Every refusal is checked against D1 and the chat objects before
 * and after, and every group of refusals has a control that is accepted, so the refusals can fail.
 *
 * This file: a follow list that only looks like a wildcard, the choice of mode, and the
 * local-only routes of the dev wing.
 *
 * Own file: it changes the stored settings and the login failures, which every test of a file
 * shares. The set-up the four unknown-values files share is tests/support/production-mode.ts.
 */
import { env } from "cloudflare:workers";
import { countingD1 } from "@src/adapters/d1/counting-d1";
import { ConfigError, modeOf, readRuntimeConfig } from "@src/composition/common/runtime-config";
import devDefaults from "@src/composition/dev-defaults.json";
import { DEFAULT_SETTINGS, isStored, resolveSettings } from "@src/domain/config/settings";
import { afterEach, describe, it } from "vitest";
import {
  app,
  CLAIMS,
  clearStoredSettings,
  devRoutes,
  LOCAL,
  LOCAL_ORIGINS,
  NOT_LOCAL,
  ORIGIN,
  PRODUCTION,
  settled,
  signedQq,
  snapshot,
  unique,
  withMode,
  without,
} from "../support/production-mode";
import { eventIdOf, groupAtBody, messageRows, turnDone } from "../support/qq-events";
import { storeSettings } from "../support/stored-settings";
import { eventually } from "../support/wait";

afterEach(clearStoredSettings);

describe("unfollowed groups under a follow list that only looks like a wildcard", () => {
  it("stores nothing of a group that 'qq:group:*' seems to cover, yet stores a listed group", async ({
    expect,
  }) => {
    const followed = `GF${unique()}`;
    await storeSettings(env, {
      follow: { groups: ["qq:group:*", "onebot:group:*", `qq:group:${followed}`] },
    });
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
