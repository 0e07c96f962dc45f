// Cloudflare Access in front of /admin and /api: tokens signed with a generated key, served
// by a fake certs endpoint shaped like the real one (`keys`, `public_cert`, `public_certs`).
import { env } from "cloudflare:workers";
import { createApp } from "@src/workers/app";
import { csrfToken } from "@src/workers/auth/csrf";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterEach, beforeAll, describe, it, vi } from "vitest";
import { ADMIN_TOKEN, session } from "../../support/admin-session";

const AUD = "4714c1358e65fe4b408ad6d432a5f878f08194bdb4752441fd56faefa9b2b6f2";
let teamCounter = 0;
const PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

type Keys = Awaited<ReturnType<typeof generateKeyPair>>;
let real: Keys;
let other: Keys;

beforeAll(async () => {
  real = await generateKeyPair("RS256", { extractable: true });
  other = await generateKeyPair("RS256", { extractable: true });
});

afterEach(async () => {
  await env.DB.prepare("DELETE FROM settings").run();
});

/** A fresh team per test, so that jose's per-team key cache never carries over. */
async function team() {
  const domain = `https://akasha-test-${++teamCounter}.cloudflareaccess.com`;
  const jwk = { ...(await exportJWK(real.publicKey)), kid: "kid-1", alg: "RS256", use: "sig" };
  const certs = vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.href !== `${domain}/cdn-cgi/access/certs`) throw new Error(`unexpected fetch ${url.href}`);
    return Response.json({
      keys: [jwk],
      public_cert: { kid: "kid-1", cert: PEM },
      public_certs: [{ kid: "kid-1", cert: PEM }],
    });
  });
  const app = createApp();
  const accessEnv = { ...env, ACCESS_TEAM_DOMAIN: domain.replace("https://", ""), ACCESS_AUD: AUD };
  const send = (path: string, init: RequestInit = {}) =>
    app.request(`https://bot.test${path}`, { redirect: "manual", ...init }, accessEnv);
  return { domain, certs, send };
}

function jwt(
  domain: string,
  opts: { key?: Keys; kid?: string; aud?: string; iss?: string; exp?: number; sub?: string } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email: "ops@example.com", type: "app" })
    .setProtectedHeader({ alg: "RS256", kid: opts.kid ?? "kid-1" })
    .setIssuer(opts.iss ?? domain)
    .setAudience(opts.aud ?? AUD)
    .setSubject(opts.sub ?? "7335d417-61da-459d-899c-0a01c76a2f94")
    .setIssuedAt(now - 10)
    .setExpirationTime(opts.exp ?? now + 3600)
    .sign((opts.key ?? real).privateKey);
}

describe("Cloudflare Access", () => {
  it("accepts a valid Access token and fetches the team's certs", async ({ expect }) => {
    const { domain, certs, send } = await team();
    const res = await send("/api/chats", { headers: { "cf-access-jwt-assertion": await jwt(domain) } });
    expect(res.status).toBe(200);
    expect(certs).toHaveBeenCalled();
    const page = await send("/admin", { headers: { "cf-access-jwt-assertion": await jwt(domain) } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("access:ops@example.com");
  });

  it("refuses forged, foreign, expired and unsigned tokens", async ({ expect }) => {
    const { domain, send } = await team();
    const now = Math.floor(Date.now() / 1000);
    const [head, body] = (await jwt(domain)).split(".");
    const forged = [
      await jwt(domain, { key: other }),
      await jwt(domain, { key: other, kid: "kid-2" }),
      await jwt(domain, { aud: "another-application" }),
      await jwt(domain, { iss: "https://someone-else.cloudflareaccess.com" }),
      await jwt(domain, { exp: now - 120 }),
      `${btoa(JSON.stringify({ alg: "none", typ: "JWT" })).replace(/=+$/, "")}.${body}.`,
      `${head}.${body}.`,
      "not-a-jwt",
    ];
    for (const token of forged) {
      const res = await send("/api/chats", { headers: { "cf-access-jwt-assertion": token } });
      expect(res.status, token.slice(0, 40)).toBe(401);
    }
  });

  it("accepts no dashboard session cookie and no missing header once Access is on", async ({ expect }) => {
    const { send } = await team();
    const s = await session();
    expect((await send("/api/chats", { headers: { cookie: s.cookie } })).status).toBe(401);
    expect((await send("/api/chats")).status).toBe(401);
    const login = await send("/admin/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: ADMIN_TOKEN }).toString(),
    });
    expect(login.status).toBe(403);
    expect(login.headers.get("set-cookie")).toBeNull();
  });

  it("needs the CSRF token bound to the Access subject, and audits the Access identity", async ({
    expect,
  }) => {
    const { domain, send } = await team();
    const token = await jwt(domain);
    const put = (csrf: string | null) =>
      send("/api/settings", {
        method: "PUT",
        headers: {
          "cf-access-jwt-assertion": token,
          "content-type": "application/json",
          ...(csrf ? { "x-csrf-token": csrf } : {}),
        },
        body: JSON.stringify({ retention: { groupDays: 11 } }),
      });
    expect((await put(null)).status).toBe(403);
    expect((await put(await csrfToken(ADMIN_TOKEN, "access:someone-else"))).status).toBe(403);
    expect(await env.DB.prepare("SELECT 1 FROM settings").first()).toBeNull();
    const csrf = await csrfToken(ADMIN_TOKEN, "access:7335d417-61da-459d-899c-0a01c76a2f94");
    expect((await put(csrf)).status).toBe(200);
    const audit = await env.DB.prepare(
      "SELECT actor FROM audit_log WHERE action = 'config.replace' ORDER BY id DESC LIMIT 1",
    ).first();
    expect(audit).toEqual({ actor: "access:ops@example.com" });
  });

  it("refuses to run with only half of the Access configuration", async ({ expect }) => {
    const res = await createApp().request(
      "https://bot.test/api/chats",
      { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
      { ...env, ACCESS_AUD: AUD },
    );
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: "misconfigured" });
  });
});
