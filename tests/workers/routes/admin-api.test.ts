import { env, exports } from "cloudflare:workers";
import { tokensMatch } from "@src/workers/admin-auth";
import { createApp } from "@src/workers/app";
import { describe, it } from "vitest";
import { c2cBody, eventIdOf, postQq, turnDone } from "../../support/qq-events";
import { eventually } from "../../support/wait";

const TOKEN = "test-admin-token";

function api(path: string, token: string | null = TOKEN) {
  return exports.default.fetch(
    new Request(
      `https://bot.test${path}`,
      token === null ? {} : { headers: { authorization: `Bearer ${token}` } },
    ),
  );
}

describe("admin API", () => {
  it.for([
    ["no header", null],
    ["a wrong token", "wrong"],
    ["a token prefix", TOKEN.slice(0, -1)],
  ] as const)("answers 401 with %s", async ([, token], { expect }) => {
    const res = await api("/api/chats", token);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("compares tokens in full", async ({ expect }) => {
    expect(await tokensMatch("abc", "abc")).toBe(true);
    expect(await tokensMatch("abc", "abcd")).toBe(false);
    expect(await tokensMatch("", "abc")).toBe(false);
  });

  it("lists chats and a chat's messages newest first", async ({ expect }) => {
    const user = `U${crypto.randomUUID().replaceAll("-", "")}`;
    const first = c2cBody({ user, text: "/ping" });
    await postQq(first);
    await turnDone(`qq:private:${user}`, eventIdOf(first));
    const second = c2cBody({ user, text: "/help" });
    await postQq(second);
    await turnDone(`qq:private:${user}`, eventIdOf(second));
    const chat = `qq:private:${user}`;
    const messages = await eventually(async () => {
      const body = (await (await api(`/api/messages?chat=${encodeURIComponent(chat)}&limit=10`)).json()) as {
        messages: { text: string; direction: string; ts: number }[];
      };
      return body.messages.length === 4 ? body.messages : undefined;
    });
    expect(messages[0]?.direction).toBe("out");
    expect(messages.map((m) => m.ts)).toEqual([...messages.map((m) => m.ts)].sort((a, b) => b - a));
    expect(messages.at(-1)?.text).toBe("/ping");
    const limited = (await (await api(`/api/messages?chat=${encodeURIComponent(chat)}&limit=1`)).json()) as {
      messages: unknown[];
    };
    expect(limited.messages).toHaveLength(1);
    const chats = (await (await api("/api/chats")).json()) as {
      chats: { chatKey: string; targetType: string }[];
    };
    expect(chats.chats.find((c) => c.chatKey === chat)).toMatchObject({ targetType: "private" });
  });

  it.for([
    ["/api/messages", "chat"],
    ["/api/messages?chat=nonsense", "chat"],
    ["/api/messages?chat=qq:group:G1&limit=0", "limit"],
    ["/api/messages?chat=qq:group:G1&limit=abc", "limit"],
  ] as const)("refuses %s naming the field", async ([path, field], { expect }) => {
    const res = await api(path);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid", field });
  });

  it("keeps /healthz public and cheap", async ({ expect }) => {
    const res = await exports.default.fetch(new Request("https://bot.test/healthz"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it("refuses to run in production without its secrets, naming the missing one", async ({ expect }) => {
    const production = { ...env, AKASHA_ENV: "production", QQ_BOT_SECRET: "", ADMIN_TOKEN: "" };
    const res = await createApp().request("/api/chats", {}, production);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({
      error: "misconfigured",
      reason: expect.stringContaining("QQ_BOT_SECRET"),
    });
  });
});
