// Own file: it counts failed attempts in D1, which every test of a file shares.
/**
 * One throttle for every way of presenting the admin secret: the login form, the bearer on
 * /api and /admin, the CLI (which sends the bearer). Five wrong tokens from a client lock that
 * client for the window, the right token included, and nobody else.
 */
import { env, exports } from "cloudflare:workers";
import { LOGIN_POLICY } from "@src/adapters/d1/login-throttle";
import { clientOf } from "@src/workers/auth/admin-door";
import { afterEach, beforeAll, describe, it } from "vitest";
import { ADMIN_TOKEN, login, ORIGIN } from "../../support/admin-session";

const bearer = (token: string, ip: string, path = "/api/chats") =>
  exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      headers: { authorization: `Bearer ${token}`, "cf-connecting-ip": ip },
      redirect: "manual",
    }),
  );

const CHINESE_FIRST = /^管理口令错误次数过多，请 \d+ 秒后再试。Too many wrong admin tokens/;

beforeAll(() => exports.default.fetch(new Request(`${ORIGIN}/healthz`)), 120_000);
afterEach(async () => {
  await env.DB.prepare("DELETE FROM admin_login_failures").run();
});

describe("the admin door", () => {
  it("throttles bearer guesses like the form: the right token is refused until the lock ends", async ({
    expect,
  }) => {
    const ip = "203.0.113.20";
    for (let i = 0; i < LOGIN_POLICY.maxFailures; i++)
      expect((await bearer(`guess-${i}`, ip)).status, `guess ${i + 1}`).toBe(401);
    const locked = await bearer(ADMIN_TOKEN, ip);
    expect(locked.status).toBe(429);
    const wait = Number(locked.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(LOGIN_POLICY.windowMs / 1000);
    const body = (await locked.json()) as { error: string; reason: string; retryAfterSeconds: number };
    expect(body).toMatchObject({ error: "throttled", retryAfterSeconds: wait });
    expect(body.reason).toMatch(CHINESE_FIRST);
    // Pages take the bearer too, and are locked the same way.
    expect((await bearer(ADMIN_TOKEN, ip, "/admin")).status).toBe(429);
    // Another client is not locked out by this one.
    expect((await bearer(ADMIN_TOKEN, "203.0.113.21")).status).toBe(200);
    // When the window has passed, the right token opens again.
    await env.DB.prepare("UPDATE admin_login_failures SET window_start = window_start - ?1")
      .bind(LOGIN_POLICY.windowMs + 1000)
      .run();
    expect((await bearer(ADMIN_TOKEN, ip)).status).toBe(200);
  });

  it("counts the form and the bearer together, and locks both", async ({ expect }) => {
    const ip = "198.51.100.40";
    for (let i = 0; i < 3; i++) expect((await login(`form-guess-${i}`, ip)).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await bearer(`bearer-guess-${i}`, ip)).status).toBe(401);
    const form = await login(ADMIN_TOKEN, ip);
    expect(form.status).toBe(429);
    expect(form.headers.get("set-cookie")).toBeNull();
    expect(Number(form.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await form.text()).toMatch(/管理口令错误次数过多，请 \d+ 秒后再试。/);
    expect((await bearer(ADMIN_TOKEN, ip)).status).toBe(429);
  });

  it("counts a malformed Authorization header as a wrong token", async ({ expect }) => {
    const ip = "198.51.100.41";
    const forms = ["Basic dGVzdA==", ADMIN_TOKEN, "Bearer", "Bearer    ", `Token ${ADMIN_TOKEN}`];
    for (const authorization of forms) {
      const res = await exports.default.fetch(
        new Request(`${ORIGIN}/api/chats`, { headers: { authorization, "cf-connecting-ip": ip } }),
      );
      expect(res.status, authorization).toBe(401);
    }
    expect((await bearer(ADMIN_TOKEN, ip)).status).toBe(429);
  });

  it("keeps the right token working for a client below the limit, and a success counts nothing", async ({
    expect,
  }) => {
    const ip = "198.51.100.42";
    for (let i = 0; i < LOGIN_POLICY.maxFailures - 1; i++) await bearer(`guess-${i}`, ip);
    for (let i = 0; i < 3; i++) expect((await bearer(ADMIN_TOKEN, ip)).status).toBe(200);
    expect((await bearer("one-more-guess", ip)).status).toBe(401);
    expect((await bearer(ADMIN_TOKEN, ip)).status).toBe(429);
  });

  it("tells IPv6 clients apart by their /64, so rotating inside it buys nothing", async ({ expect }) => {
    for (let i = 0; i < LOGIN_POLICY.maxFailures; i++) await bearer(`guess-${i}`, `2001:db8:1:2::${i + 1}`);
    expect((await bearer(ADMIN_TOKEN, "2001:db8:1:2:ffff:ffff:ffff:ffff")).status).toBe(429);
    expect((await bearer(ADMIN_TOKEN, "2001:db8:1:3::1")).status).toBe(200);
  });
});

describe("clientOf", () => {
  const of = (ip?: string) =>
    clientOf(new Request("https://x/", { headers: ip === undefined ? {} : { "cf-connecting-ip": ip } }));

  it("keys IPv4 by address, IPv6 by its /64, and a request without the header as local", ({ expect }) => {
    expect(of("203.0.113.9")).toBe("203.0.113.9");
    expect(of("2001:0db8:0000:0042:0000:8a2e:0370:7334")).toBe("2001:db8:0:42::/64");
    expect(of("2001:db8:0:42::1")).toBe("2001:db8:0:42::/64");
    expect(of("::1")).toBe("0:0:0:0::/64");
    expect(of("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(of()).toBe("local");
    // Not an address: kept as given, so it is still one client.
    expect(of("2001:db8::1::2")).toBe("2001:db8::1::2");
  });
});
