/**
 * Production is the default: only AKASHA_ENV exactly "local" turns on local mode. A missing,
 * empty or unknown value must behave as production — no /dev routes, no dev default secrets —
 * so a deploy that forgot its environment fails closed.
 */
import { env } from "cloudflare:workers";
import { modeOf, readRuntimeConfig } from "@src/composition/common/runtime-config";
import devDefaults from "@src/composition/dev-defaults.json";
import { createApp } from "@src/workers/app";
import { describe, it } from "vitest";
import { signedQqRequest } from "../support/qq-signing";
import { storedSettings } from "../support/stored-settings";

const app = createApp();
const NOT_LOCAL = [undefined, "", "Local", "LOCAL", " local", "dev", "development", "test", "production"];
const label = (v: string | undefined) => (v === undefined ? "(missing)" : JSON.stringify(v));
const withMode = (value: string | undefined, extra: Partial<Env> = {}): Env => {
  const { AKASHA_ENV: _unused, ...rest } = { ...env, ...extra };
  return (value === undefined ? rest : { ...rest, AKASHA_ENV: value }) as Env;
};
const json = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

describe("mode", () => {
  it("is local only for exactly 'local'", ({ expect }) => {
    expect(modeOf("local")).toBe("local");
    for (const value of NOT_LOCAL) expect(modeOf(value), label(value)).toBe("production");
    expect(readRuntimeConfig(withMode(undefined)).mode).toBe("production");
  });

  it.for(NOT_LOCAL.map(label))("%s has no local-only routes", async (name, { expect }) => {
    const value = NOT_LOCAL.find((v) => label(v) === name);
    const bindings = withMode(value);
    const before = await storedSettings(env).read();
    const routes: [string, unknown][] = [
      ["/dev/message", { chat: "qq:group:G1", text: "/ping" }],
      ["/dev/bench/memory/settings", { identity: { admins: ["qq:user:ATTACKER"] } }],
      ["/dev/bench/ingest", { mode: "single", n: 1, chat: "bench:group:FAILCLOSED" }],
      ["/dev/eval/stats", { collection: "x" }],
      [
        "/dev/eval/memory/items",
        { chat: "qq:private:FAILCLOSED", items: [{ id: "1", text: "我的银行卡密码是 0000", at: 1 }] },
      ],
    ];
    for (const [path, body] of routes) {
      const res = await app.request(path, json(body), bindings);
      expect(res.status, path).toBe(404);
    }
    expect(await storedSettings(env).read()).toBe(before);
    const ingested = await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE chat_key = ?")
      .bind("bench:group:FAILCLOSED")
      .first<{ n: number }>();
    expect(ingested?.n).toBe(0);
    const remembered = await env.DB.prepare("SELECT count(*) AS n FROM nodes WHERE scope_id = ?")
      .bind("qq:private:FAILCLOSED")
      .first<{ n: number }>();
    expect(remembered?.n).toBe(0);
  });

  it.for(NOT_LOCAL.map(label))("%s never falls back to the dev default secrets", async (name, { expect }) => {
    const value = NOT_LOCAL.find((v) => label(v) === name);
    const bindings = withMode(value, { QQ_BOT_APPID: "", QQ_BOT_SECRET: "", ADMIN_TOKEN: "" });
    const admin = await app.request(
      "/api/chats",
      { headers: { authorization: `Bearer ${devDefaults.ADMIN_TOKEN}` } },
      bindings,
    );
    expect(admin.status).toBe(500);
    expect(await admin.json()).toMatchObject({ error: "misconfigured" });
    // A request signed with the published dev secret is not accepted either.
    const forged = await signedQqRequest("https://bot.test/webhook/qq", '{"op":0,"d":{}}', {
      secret: devDefaults.QQ_BOT_SECRET,
      appId: devDefaults.QQ_BOT_APPID,
    });
    expect((await app.request(forged, undefined, bindings)).status).toBe(500);
  });

  it("refuses the published dev defaults as production secrets", async ({ expect }) => {
    const bindings = withMode(undefined, {
      QQ_BOT_APPID: devDefaults.QQ_BOT_APPID,
      QQ_BOT_SECRET: devDefaults.QQ_BOT_SECRET,
      ADMIN_TOKEN: devDefaults.ADMIN_TOKEN,
    });
    const res = await app.request(
      "/api/chats",
      { headers: { authorization: `Bearer ${devDefaults.ADMIN_TOKEN}` } },
      bindings,
    );
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ reason: expect.stringContaining("published dev default") });
  });

  it("uses the dev defaults and serves /dev only when local mode was asked for", async ({ expect }) => {
    const bindings = withMode("local", { QQ_BOT_APPID: "", QQ_BOT_SECRET: "", ADMIN_TOKEN: "" });
    expect(readRuntimeConfig(bindings).adminToken).toBe(devDefaults.ADMIN_TOKEN);
    const res = await app.request("/dev/message", json({ chat: "nonsense", text: "hi" }), bindings);
    expect(res.status).toBe(400);
  });
});
