// Own file: it counts failed logins in D1, which every test of a file shares.
import { env, exports } from "cloudflare:workers";
import { createApp } from "@src/workers/app";
import { LOGIN_COOKIE, LOGIN_TTL_SECONDS } from "@src/workers/auth/login-cookie";
import { afterEach, describe, it } from "vitest";
import { ADMIN_TOKEN, login, ORIGIN, session } from "../../support/admin-session";

const call = (path: string, init: RequestInit = {}) =>
  exports.default.fetch(new Request(`${ORIGIN}${path}`, { redirect: "manual", ...init }));

const settingsRow = () => env.DB.prepare("SELECT value FROM settings WHERE key = 'config'").first();

afterEach(async () => {
  await env.DB.prepare("DELETE FROM admin_login_failures").run();
  await env.DB.prepare("DELETE FROM settings").run();
});

/** Every admin route the app registers, with its parameters filled in. */
function adminRoutes() {
  const seen = new Set<string>();
  for (const route of createApp().routes) {
    if (!/^\/(api|admin)(\/|$)/.test(route.path) || route.method === "ALL") continue;
    if (route.path === "/admin/login" || route.path === "/admin/app.css") continue;
    // The language switch only sets a display cookie (i18n/language.ts): open like the login page.
    if (route.path === "/admin/lang/:lang") continue;
    seen.add(`${route.method} ${route.path.replace(/:[^/]+/g, "x")}`);
  }
  return [...seen].map((entry) => entry.split(" ") as [string, string]);
}

describe("admin guard", () => {
  it("knows the routes it guards", ({ expect }) => {
    const routes = adminRoutes().map(([m, p]) => `${m} ${p}`);
    expect(routes).toContain("GET /api/chats");
    expect(routes).toContain("PUT /api/settings");
    expect(routes).toContain("GET /admin");
    expect(routes).toContain("POST /admin/logout");
  });

  it("refuses every /api and /admin route without credentials", async ({ expect }) => {
    for (const [method, path] of adminRoutes()) {
      const body = method === "GET" || method === "HEAD" ? undefined : "{}";
      const res = await call(path, { method, body, headers: { "content-type": "application/json" } });
      const where = `${method} ${path}`;
      if (path.startsWith("/admin") && method === "GET") {
        expect(res.status, where).toBe(303);
        expect(res.headers.get("location"), where).toBe("/admin/login");
      } else {
        expect(res.status, where).toBe(401);
      }
    }
  });

  it("refuses every route with a wrong bearer token, even next to a valid session", async ({ expect }) => {
    const s = await session();
    // One client address per request: wrong tokens are throttled per client (admin-door.test.ts).
    for (const [i, [method, path]] of adminRoutes().entries()) {
      const res = await call(path, {
        method,
        headers: {
          authorization: "Bearer not-the-token",
          cookie: s.cookie,
          "cf-connecting-ip": `192.0.2.${i % 250}`,
        },
      });
      const refused = path.startsWith("/admin") && method === "GET" ? 303 : 401;
      expect(res.status, `${method} ${path}`).toBe(refused);
    }
  });

  it("keeps the bearer token working for the CLI, with no CSRF token", async ({ expect }) => {
    const res = await call("/api/settings", {
      method: "PUT",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ retention: { groupDays: 9 } }),
    });
    expect(res.status).toBe(200);
    expect(await settingsRow()).not.toBeNull();
  });
});

describe("login", () => {
  it("sets a signed, HttpOnly, Secure, SameSite=Strict cookie with an expiry", async ({ expect }) => {
    const res = await login();
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(new RegExp(`^${LOGIN_COOKIE}=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+;`));
    expect(cookie).toContain(`Max-Age=${LOGIN_TTL_SECONDS}`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("Secure");
    expect(cookie).toContain("SameSite=Strict");
    const page = await call("/admin", { headers: { cookie: cookie.split(";")[0] ?? "" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("退出登录");
  });

  it("refuses a wrong token with no cookie", async ({ expect }) => {
    const res = await login("wrong");
    expect(res.status).toBe(401);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await res.text()).toContain("这不是管理口令");
  });

  it("refuses a login posted from another origin", async ({ expect }) => {
    const res = await exports.default.fetch(
      new Request(`${ORIGIN}/admin/login`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.test" },
        body: new URLSearchParams({ token: ADMIN_TOKEN }).toString(),
        redirect: "manual",
      }),
    );
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("rate-limits failed logins per client, even the right token, and not other clients", async ({
    expect,
  }) => {
    for (let i = 0; i < 5; i++) expect((await login("wrong", "203.0.113.9")).status).toBe(401);
    const blocked = await login(ADMIN_TOKEN, "203.0.113.9");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(blocked.headers.get("set-cookie")).toBeNull();
    expect((await login(ADMIN_TOKEN, "203.0.113.10")).status).toBe(303);
  });

  it("logs out: the cookie is cleared", async ({ expect }) => {
    const s = await session();
    const res = await call("/admin/logout", {
      method: "POST",
      headers: { cookie: s.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: s.csrf }).toString(),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/login");
    expect(res.headers.get("set-cookie")).toMatch(new RegExp(`^${LOGIN_COOKIE}=;.*Max-Age=0`));
  });
});

describe("session cookie", () => {
  it("refuses a forged, tampered, foreign or expired cookie", async ({ expect }) => {
    const s = await session();
    const [payload, signature] = s.value.split(".") as [string, string];
    const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
    const longer = btoa(JSON.stringify({ ...claims, exp: claims.exp + 86400 * 365 }))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    const otherApp = createApp();
    const foreign = await (async () => {
      const { issueLogin } = await import("@src/workers/auth/login-cookie");
      return (await issueLogin("some-other-token", Date.now())).value;
    })();
    const expired = await session(Date.now() - (LOGIN_TTL_SECONDS + 5) * 1000);
    // The first character carries six bits of the signature; the last ones may carry padding
    // bits that decode to the same bytes when changed.
    const tampered = `${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`;
    const bad = [
      `${longer}.${signature}`,
      `${payload}.${tampered}`,
      `${payload}`,
      "garbage",
      foreign,
      expired.value,
    ];
    for (const value of bad) {
      const res = await otherApp.request(
        "/api/chats",
        { headers: { cookie: `${LOGIN_COOKIE}=${value}` } },
        env,
      );
      expect(res.status, value).toBe(401);
    }
    const good = await otherApp.request("/api/chats", { headers: { cookie: s.cookie } }, env);
    expect(good.status).toBe(200);
  });
});

describe("CSRF", () => {
  it("refuses a state change with the session cookie but without its CSRF token, changing nothing", async ({
    expect,
  }) => {
    const s = await session();
    const other = await session();
    for (const csrf of [null, "forged", other.csrf]) {
      const headers: Record<string, string> = { cookie: s.cookie, "content-type": "application/json" };
      if (csrf) headers["x-csrf-token"] = csrf;
      const res = await call("/api/settings", {
        method: "PUT",
        headers,
        body: JSON.stringify({ retention: { groupDays: 9 } }),
      });
      expect(res.status, String(csrf)).toBe(403);
      expect(await res.json()).toMatchObject({ error: "forbidden" });
    }
    expect(await settingsRow()).toBeNull();
    const logout = await call("/admin/logout", { method: "POST", headers: { cookie: s.cookie } });
    expect(logout.status).toBe(403);
    expect(logout.headers.get("set-cookie")).toBeNull();
  });

  it("accepts the state change with the session's own token and audits the session admin", async ({
    expect,
  }) => {
    const s = await session();
    const res = await call("/api/settings", {
      method: "PUT",
      headers: { cookie: s.cookie, "content-type": "application/json", "x-csrf-token": s.csrf },
      body: JSON.stringify({ retention: { groupDays: 9 } }),
    });
    expect(res.status).toBe(200);
    const audit = await env.DB.prepare(
      "SELECT actor FROM audit_log WHERE action = 'config.replace' ORDER BY id DESC LIMIT 1",
    ).first();
    expect(audit).toEqual({ actor: "admin" });
  });
});
