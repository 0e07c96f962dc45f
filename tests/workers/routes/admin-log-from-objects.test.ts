// The admin's reads of a chat's log come from the chat's own object: `GET /api/messages` (and so
// the CLI's `messages` and `messages --export`), the dashboard's history page and a session
// export with its log. Each test deletes the chat's D1 rows first, so what it reads can only have
// come from the object. A chat the registry does not know, a bad page and an object that fails
// are refused with the reason, and change nothing.
import { env } from "cloudflare:workers";
import { chatsService } from "@src/composition/request/chats-service";
import { beforeAll, describe, it } from "vitest";
import { adminApi } from "../../support/admin-api";
import { dashboardPage } from "../../support/admin-session";
import { ADMIN_P, ADMIN_PRIVATE, registerGroupWorld } from "../../support/group-turn-world";
import { c2cBodyWithIdentity } from "../../support/identity";
import { uid } from "../../support/memory";
import { objectLogRows } from "../../support/object-log";
import { sayInPrivate } from "../../support/qq-events";
import { say } from "../../support/turns";
import { eventually } from "../../support/wait";

beforeAll(registerGroupWorld);

const api = (path: string) => adminApi(path);

const page = (path: string) => dashboardPage(path);

const d1Rows = async (chat: string) =>
  (
    await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE chat_key = ?")
      .bind(chat)
      .first<{ n: number }>()
  )?.n ?? 0;

/** Rows still waiting in the chat object's outbox for D1. */
const unflushedOf = async (chat: string) => (await env.CHAT_SESSION.getByName(chat).stats()).unflushed;

/**
 * A private chat whose `/ping` and its reply went through the webhook and the turn: once its
 * object logged both and D1 has its registry row, whatever D1 holds of its log is deleted.
 */
async function chatOnlyInItsObject(): Promise<string> {
  const user = `U${crypto.randomUUID().replaceAll("-", "")}`;
  const chat = `qq:private:${user}`;
  await sayInPrivate(user, "/ping");
  await eventually(async () => {
    const known = await env.DB.prepare("SELECT 1 FROM chats WHERE chat_key = ?").bind(chat).first();
    return known !== null && (await objectLogRows(chat)).length === 2 && (await unflushedOf(chat)) === 0;
  });
  await env.DB.prepare("DELETE FROM messages WHERE chat_key = ?").bind(chat).run();
  return chat;
}

describe("the admin's reads of a chat's log", () => {
  it("GET /api/messages answers from the chat's object, its D1 rows gone", async ({ expect }) => {
    const chat = await chatOnlyInItsObject();
    const res = await api(`/messages?chat=${encodeURIComponent(chat)}&limit=10`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      chat: string;
      messages: { text: string; direction: string; seq: number }[];
    };
    expect(body.chat).toBe(chat);
    expect(body.messages.map((m) => m.direction)).toEqual(["out", "in"]);
    expect(body.messages[1]?.text).toBe("/ping");
    // Paging back by time from the reply finds the message before it.
    const ts = (
      (await (await api(`/messages?chat=${encodeURIComponent(chat)}&limit=1`)).json()) as {
        messages: { ts: number }[];
      }
    ).messages[0]?.ts;
    const older = (await (
      await api(`/messages?chat=${encodeURIComponent(chat)}&limit=10&before=${ts}`)
    ).json()) as { messages: { text: string }[] };
    expect(older.messages.every((m) => m.text === "/ping")).toBe(true);
    expect(await d1Rows(chat)).toBe(0);
  });

  it("the dashboard's history page shows the object's log, filtered", async ({ expect }) => {
    const chat = await chatOnlyInItsObject();
    const res = await page(`/admin/chats/${encodeURIComponent(chat)}?q=ping`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<td>/ping</td>");
    expect(html).not.toContain('role="alert"');
  });

  it("a session export with its log reads the log from the chat's object", async ({ expect }) => {
    const chat = await chatOnlyInItsObject();
    const res = await api(`/sessions/${encodeURIComponent(chat)}/export?log=1`);
    expect(res.status).toBe(200);
    const markdown = await res.text();
    expect(markdown).toContain("## Log (2)");
    expect(markdown).toContain("/ping");
  });

  it("/session export --log of the admin's own chat, asked in it, holds that chat's log", async ({
    expect,
  }) => {
    const tag = uid();
    await say(c2cBodyWithIdentity({ user: ADMIN_P, text: `记下 ${tag}` }), ADMIN_PRIVATE);
    const exported = await say(
      c2cBodyWithIdentity({ user: ADMIN_P, text: `/session export ${ADMIN_PRIVATE} --log` }),
      ADMIN_PRIVATE,
    );
    expect(exported).toContain("## Log");
    expect(exported).toContain(`记下 ${tag}`);
  });

  it("refuses a chat the registry does not know, asking no object and writing nothing", async ({
    expect,
  }) => {
    const chat = `qq:group:NOPE${crypto.randomUUID().replaceAll("-", "")}`;
    const before = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM chats) AS c, (SELECT count(*) FROM audit_log) AS a",
    ).first<{ c: number; a: number }>();
    const res = await api(`/messages?chat=${encodeURIComponent(chat)}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "not-found", what: `chat ${chat}` });
    const html = await page(`/admin/chats/${encodeURIComponent(chat)}`);
    expect(html.status).toBe(404);
    expect(await html.text()).toContain(`没有这个聊天：${chat} 不在聊天列表里，未读取任何记录。`);
    const bad = await page(`/admin/chats/${encodeURIComponent("not a key")}`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("聊天标识无效");
    const after = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM chats) AS c, (SELECT count(*) FROM audit_log) AS a",
    ).first<{ c: number; a: number }>();
    expect(after).toEqual(before);
  });

  it.for([
    ["limit=0", "limit"],
    ["limit=501", "limit"],
    ["limit=2.5", "limit"],
    ["before=-1", "before"],
    ["before=soon", "before"],
  ] as const)("refuses %s naming the field", async ([params, field], { expect }) => {
    const chat = await chatOnlyInItsObject();
    const res = await api(`/messages?chat=${encodeURIComponent(chat)}&${params}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid", field });
  });

  it("an object that fails is a clear unavailable, never an empty page", async ({ expect }) => {
    const chat = await chatOnlyInItsObject();
    // The object itself refuses a page the API would refuse, and the service says why.
    expect(await chatsService(env).messages(chat, { limit: 0 })).toEqual({
      ok: false,
      error: {
        kind: "unavailable",
        reason: "the chat's object did not answer: limit must be an integer from 1 to 500, not 0",
      },
    });
    const failing = {
      ...env,
      CHAT_SESSION: {
        getByName: () => ({
          logPage: () => Promise.reject(new Error("object overloaded")),
          logBrowse: () => Promise.reject(new Error("object overloaded")),
        }),
      },
    } as unknown as Env;
    const read = await chatsService(failing).messages(chat, { limit: 10 });
    expect(read).toEqual({
      ok: false,
      error: { kind: "unavailable", reason: "the chat's object did not answer: object overloaded" },
    });
    const browsed = await chatsService(failing).browse(chat, { limit: 10 });
    expect(browsed.ok).toBe(false);
  });
});
