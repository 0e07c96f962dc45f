/**
 * A missing or unknown value means production (docs/invariants.md#privileged-actions-fail-closed).
 * Only AKASHA_ENV exactly "local" opens the dev wing and the local conveniences; a missing secret
 * never means "accept unsigned" or "accept any admin"; headers cannot claim a local or admin
 * caller; a settings document or AKASHA_CONFIG that is invalid anywhere is refused whole, and
 * never widens what is stored. Every refusal is checked against D1 and the chat objects before
 * and after, and every group of refusals has a control that is accepted, so the refusals can fail.
 *
 * This file: both webhooks, whatever the mode, the secrets and AKASHA_CONFIG.
 *
 * Own file: it changes the stored settings and the login failures, which every test of a file
 * shares. The set-up the four unknown-values files share is tests/support/production-mode.ts.
 */

import { signOneBotBody } from "@src/adapters/onebot/onebot-signature";
import { ConfigError } from "@src/composition/common/runtime-config";
import devDefaults from "@src/composition/dev-defaults.json";
import { loadSettings } from "@src/composition/settings/settings-loader";
import { afterEach, describe, it } from "vitest";
import { signedOneBotRequest } from "../support/onebot-signing";
import {
  app,
  CLAIMS,
  clearStoredSettings,
  LOCAL,
  NOT_LOCAL,
  now,
  ONEBOT_SECRET,
  ORIGIN,
  oneBotPrivate,
  oneBotUrl,
  oneBotUser,
  PRODUCTION,
  qqUrl,
  SELF,
  settled,
  signatureWith,
  signedQq,
  snapshot,
  TOKEN,
  unique,
  unsignedOneBot,
  withMode,
  without,
} from "../support/production-mode";
import { c2cBody, eventIdOf, TEST_APP_ID } from "../support/qq-events";

afterEach(clearStoredSettings);

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
