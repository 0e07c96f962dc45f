/**
 * A missing or unknown value means production (docs/invariants.md#privileged-actions-fail-closed).
 * Only AKASHA_ENV exactly "local" opens the dev wing and the local conveniences; a missing secret
 * never means "accept unsigned" or "accept any admin"; headers cannot claim a local or admin
 * caller; a settings document or AKASHA_CONFIG that is invalid anywhere is refused whole, and
 * never widens what is stored. Every refusal is checked against D1 and the chat objects before
 * and after, and every group of refusals has a control that is accepted, so the refusals can fail.
 *
 * This file: the admin routes in production: tokens, Access, cookies and CSRF.
 *
 * Own file: it changes the stored settings and the login failures, which every test of a file
 * shares. The set-up the four unknown-values files share is tests/support/production-mode.ts.
 */
import { env } from "cloudflare:workers";
import devDefaults from "@src/composition/dev-defaults.json";
import { csrfToken } from "@src/workers/auth/csrf";
import { issueLogin, LOGIN_COOKIE } from "@src/workers/auth/login-cookie";
import { afterEach, describe, it } from "vitest";
import {
  app,
  CLAIMS,
  clearStoredSettings,
  LOCAL_ORIGINS,
  ORIGIN,
  PRODUCTION,
  snapshot,
  storedRow,
  TOKEN,
  withMode,
  without,
} from "../support/production-mode";

afterEach(clearStoredSettings);

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
