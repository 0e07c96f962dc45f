/**
 * Every command's reply against what is stored afterwards (issue: replies that claim what did
 * not happen). Each message goes through the signed QQ webhook and the chat object; each reply
 * is checked against D1 or the chat object, so "记住了" is said only when a memory row exists.
 */
import { env } from "cloudflare:workers";
import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { describe, it } from "vitest";
import { uid } from "../support/memory";
import { groupAtBody } from "../support/qq-events";
import { privateChatStorageOff } from "../support/storage-off";
import { inPlainPrivateChat, say } from "../support/turns";

const memoryRows = async (text: string) =>
  (
    await env.DB.prepare(
      "SELECT raw_text AS text FROM nodes WHERE node_type = 'memory' AND status = 'active' AND raw_text LIKE ?1",
    )
      .bind(`%${text}%`)
      .all<{ text: string }>()
  ).results.map((r) => r.text);

const inGroup = (group: string, member: string, text: string) =>
  say(groupAtBody({ group, member, text }), `qq:group:${group}`);

describe("/remember and 记住…", () => {
  it("says 记住了 only for what a memory row now holds, and 已经记得 for a repeat", async ({ expect }) => {
    const tag = uid();
    const user = `RT${tag}`;
    expect(await inPlainPrivateChat(user, `/remember 我养了一只叫${tag}的猫`)).toContain("好的，记住了");
    expect(await memoryRows(tag)).toHaveLength(1);
    expect(await inPlainPrivateChat(user, `/remember 我养了一只叫${tag}的猫`)).toContain("这个我已经记得了");
    expect(await memoryRows(tag)).toHaveLength(1);
    expect(await inPlainPrivateChat(user, `/remember 我的密码是 hunter2${tag}`)).toContain("不会记下来");
    expect(await memoryRows(`hunter2${tag}`)).toEqual([]);
    expect(await inPlainPrivateChat(user, "/remember")).toContain("用法");
  });

  it("with the chat's storage off says nothing was stored — command and intent alike", async ({ expect }) => {
    const { tag, user, switched } = await privateChatStorageOff("RO");
    expect(switched).toBe(200);
    for (const text of [`/remember 我喜欢${tag}口味的冰淇淋`, `记住我喜欢${tag}口味的冰淇淋`]) {
      const reply = await inPlainPrivateChat(user, text);
      expect(reply).not.toContain("记住了");
      expect(reply).toContain("存储已关闭");
      expect(await memoryRows(tag)).toEqual([]);
    }
  });
});

describe("the other commands", () => {
  it("/ping, /help and an unknown command change nothing and say so", async ({ expect }) => {
    const user = `RP${uid()}`;
    expect(await inPlainPrivateChat(user, "/ping")).toBe("pong");
    const help = await inPlainPrivateChat(user, "/help");
    for (const c of defaultTurnRegistry().commands) expect(help).toContain(c.usage);
    expect(await inPlainPrivateChat(user, "/nosuchcommand")).toContain("未知命令 /nosuchcommand");
  });

  it("/reset clears the recent turns it says it cleared, and a second at once says it did not", async ({
    expect,
  }) => {
    const user = `RR${uid()}`;
    const chat = `qq:private:${user}`;
    await inPlainPrivateChat(user, "你好");
    expect((await env.CHAT_SESSION.getByName(chat).stats()).recentTurns).toBeGreaterThan(0);
    expect(await inPlainPrivateChat(user, "/reset")).toContain("已清空本聊天的短期上下文");
    expect((await env.CHAT_SESSION.getByName(chat).stats()).recentTurns).toBe(0);
    const again = await inPlainPrivateChat(user, "/reset");
    expect(again).toContain("秒后再试");
    expect((await env.CHAT_SESSION.getByName(chat).stats()).recentTurns).toBe(2);
  });

  it("admin commands refused for a member say so and leave settings, links and sessions as they were", async ({
    expect,
  }) => {
    const before = await env.DB.prepare("SELECT value FROM settings WHERE key = 'config'").first();
    const links = async () =>
      (await env.DB.prepare("SELECT count(*) AS n FROM person_accounts").first<{ n: number }>())?.n;
    const linksBefore = await links();
    const group = `RG${uid()}`;
    for (const text of [
      "/follow",
      "/unfollow",
      "/identity link qq:user:X alice",
      "/session store qq:group:X off",
    ])
      expect(await inGroup(group, "MEMBER", text)).toContain("⛔");
    expect(await inPlainPrivateChat("MEMBER", "/claim akc_aaaaaaaaaaaaaaaaaaaaaaaa")).toContain("⛔");
    expect(await env.DB.prepare("SELECT value FROM settings WHERE key = 'config'").first()).toEqual(before);
    expect(await links()).toBe(linksBefore);
    const whoami = await inGroup(group, "MEMBER", "/whoami");
    expect(whoami).toContain("qq:user:MEMBER");
    expect(await env.DB.prepare("SELECT value FROM settings WHERE key = 'config'").first()).toEqual(before);
  });
});
