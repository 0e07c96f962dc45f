// Own file: it changes the login failures, which every test of a file shares.
/**
 * Production keeps the admin door shut while ADMIN_TOKEN is missing, shorter than 32
 * characters or a value the repository publishes: every admin route (API, dashboard, login)
 * answers one error naming the problem and the fix, even to the right token, and says nothing
 * else; the webhooks go on working. Local mode keeps its short dev token.
 */
import { env } from "cloudflare:workers";
import { MIN_ADMIN_TOKEN_LENGTH, PUBLISHED_TOKENS } from "@src/composition/common/admin-token";
import devDefaults from "@src/composition/dev-defaults.json";
import { createApp } from "@src/workers/app";
import { describe, it } from "vitest";
import { signedOneBotRequest } from "../../support/onebot-signing";
import { c2cBody, TEST_APP_ID, TEST_SECRET } from "../../support/qq-events";
import { signedQqRequest } from "../../support/qq-signing";

const app = createApp();
const ORIGIN = "https://bot.test";
/** Like `openssl rand -base64 32`: 44 characters, made here so that the repository shows none. */
const STRONG = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));

const production = (token: string | undefined): Env => {
  const { ADMIN_TOKEN: _unused, ...rest } = { ...env, AKASHA_ENV: "production" } as Record<string, unknown>;
  return (token === undefined ? rest : { ...rest, ADMIN_TOKEN: token }) as unknown as Env;
};

const WEAK: [string, string | undefined][] = [
  ["missing", undefined],
  ["blank", "   "],
  ["the dev default", devDefaults.ADMIN_TOKEN],
  ["the tests' token", "test-admin-token"],
  ["the 32-character dev QQ secret", devDefaults.QQ_BOT_SECRET],
  ["31 random characters", STRONG.slice(0, MIN_ADMIN_TOKEN_LENGTH - 1)],
  ["31 characters padded with spaces", ` ${STRONG.slice(0, MIN_ADMIN_TOKEN_LENGTH - 1)} `],
];

const ADMIN_PATHS = ["/api/chats", "/api/settings", "/admin", "/admin/login", "/admin/settings"];

describe("a weak ADMIN_TOKEN in production", () => {
  it.for(WEAK)("%s closes every admin route with the problem and the fix", async ([, token], { expect }) => {
    const bindings = production(token);
    for (const path of ADMIN_PATHS) {
      const headers: Record<string, string> = token ? { authorization: `Bearer ${token.trim()}` } : {};
      const res = await app.request(path, { headers }, bindings);
      expect(res.status, path).toBe(500);
      const text = await res.text();
      const body = JSON.parse(text) as { error: string; reason: string };
      expect(body.error, path).toBe("misconfigured");
      expect(body.reason).toMatch(/^ADMIN_TOKEN /);
      expect(body.reason).toContain("wrangler secret put ADMIN_TOKEN --env production");
      expect(body.reason).toContain("openssl rand -base64 32");
      expect(Object.keys(body).sort()).toEqual(["error", "reason"]);
      if (token?.trim()) expect(text, path).not.toContain(token.trim());
    }
    // The login form does not even look at the token.
    const form = await app.request(
      "/admin/login",
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
        body: new URLSearchParams({ token: token?.trim() ?? "" }).toString(),
      },
      bindings,
    );
    expect(form.status).toBe(500);
    expect(form.headers.get("set-cookie")).toBeNull();
    const failures = await env.DB.prepare("SELECT count(*) AS n FROM admin_login_failures").first<{
      n: number;
    }>();
    expect(failures?.n).toBe(0);
  });

  it.for(WEAK)("%s leaves both webhooks and the health check working", async ([, token], { expect }) => {
    const bindings = production(token);
    expect((await app.request("/healthz", {}, bindings)).status).toBe(200);
    const body = '{"op":13,"d":{"plain_token":"X7cT2qLm9PzR4vNw8KdA","event_ts":"1735689600"}}';
    const validation = await app.request(
      await signedQqRequest(`${ORIGIN}/webhook/qq`, body, { secret: TEST_SECRET, appId: TEST_APP_ID }),
      undefined,
      bindings,
    );
    expect(validation.status).toBe(200);
    expect(await validation.json()).toMatchObject({ plain_token: "X7cT2qLm9PzR4vNw8KdA" });
    const message = await app.request(
      await signedQqRequest(`${ORIGIN}/webhook/qq`, c2cBody({ user: "U_WEAK_TOKEN", text: "/ping" }), {
        secret: TEST_SECRET,
        appId: TEST_APP_ID,
      }),
      undefined,
      bindings,
    );
    expect(message.status).toBe(200);
    expect(await message.json()).toEqual({ op: 12, d: 0 });
    const oneBot = await app.request(
      await signedOneBotRequest(
        `${ORIGIN}/webhook/onebot`,
        JSON.stringify({ time: Math.floor(Date.now() / 1000), self_id: 10000, post_type: "meta_event" }),
      ),
      undefined,
      bindings,
    );
    expect(oneBot.status).toBe(204);
  });
});

describe("a strong ADMIN_TOKEN in production", () => {
  it("opens the admin routes to that token only (the control)", async ({ expect }) => {
    const bindings = production(STRONG);
    const ok = await app.request("/api/chats", { headers: { authorization: `Bearer ${STRONG}` } }, bindings);
    expect(ok.status).toBe(200);
    const wrong = await app.request(
      "/api/chats",
      { headers: { authorization: `Bearer ${STRONG.slice(1)}`, "cf-connecting-ip": "192.0.2.77" } },
      bindings,
    );
    expect(wrong.status).toBe(401);
    expect((await app.request("/admin/login", {}, bindings)).status).toBe(200);
    await env.DB.prepare("DELETE FROM admin_login_failures").run();
  });

  it("refuses every published value, whatever its length", ({ expect }) => {
    for (const token of PUBLISHED_TOKENS) expect(production(token).ADMIN_TOKEN).toBe(token);
    return Promise.all(
      PUBLISHED_TOKENS.map(async (token) => {
        const res = await app.request(
          "/api/chats",
          { headers: { authorization: `Bearer ${token}` } },
          production(token),
        );
        expect(res.status, token).toBe(500);
      }),
    );
  });
});

describe("local mode", () => {
  it("keeps its short dev token", async ({ expect }) => {
    const local = { ...production(undefined), AKASHA_ENV: "local" } as Env;
    const res = await app.request(
      "/api/chats",
      { headers: { authorization: `Bearer ${devDefaults.ADMIN_TOKEN}` } },
      local,
    );
    expect(res.status).toBe(200);
  });
});
