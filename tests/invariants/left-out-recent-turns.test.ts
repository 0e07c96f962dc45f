// `leave-out add <account> --forget` (docs/settings.md#privacy-leaving-a-person-out) deletes what
// was kept of the account, and the chat objects' short-term context is kept too: up to 200 recent
// turns per chat, the newest of which every next turn's prompt reads. Their turns leave it in every
// chat they spoke in — a group and their own private chat — in the same step; other people's turns
// and the bot's replies stay. Own file: it changes the stored settings, which every test of a file
// shares.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { afterAll, beforeAll, describe, it } from "vitest";
import { api } from "../support/knowledge-api";
import { uid } from "../support/memory";
import { preview } from "../support/preview";
import { c2cBody, eventIdOf, groupAtBody, postQq, turnDone } from "../support/qq-events";
import { storedSettings, storeSettings } from "../support/stored-settings";

beforeAll(async () => {
  await storeSettings(env, { follow: { groups: ["*"] } });
});
afterAll(async () => {
  await storedSettings(env).write("{}", "test", Date.now());
});

async function said(body: string, chat: string) {
  const res = await postQq(body);
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
  await turnDone(chat, eventIdOf(body));
}

/** The user turns the chat's next prompt reads, as the preview of a message by `sender` shows them. */
async function promptTurns(chat: string, sender: string) {
  const p = await preview({ chat, sender, text: "刚才大家说了什么" });
  return p.mandatory.recentTurns.filter((t) => t.role === "user").map((t) => t.text);
}

/** Every stored user turn of the chat that holds `needle`, whatever the prompt's window (replies may quote it). */
const storedTurns = (chat: string, needle: string) =>
  runInDurableObject(
    env.CHAT_SESSION.getByName(chat),
    (_o: ChatSession, state) =>
      state.storage.sql
        .exec<{ n: number }>(
          "SELECT count(*) AS n FROM recent_turns WHERE role = 'user' AND text LIKE ?",
          `%${needle}%`,
        )
        .one().n,
  );

describe("a left-out person forgotten with --forget", () => {
  it("leaves the short-term context of every chat they spoke in; others' turns stay", async ({ expect }) => {
    const tag = uid();
    const group = `RT${tag}`;
    const groupChat = `qq:group:${group}`;
    const person = `LR${tag}`;
    const other = `OR${tag}`;
    const privateChat = `qq:private:${person}`;
    // Wordings no rule was written around: an address, a half-English aside, traditional characters,
    // a plain remark.
    await said(groupAtBody({ group, member: person, text: `我住在梧桐路${tag}号，别到处说` }), groupChat);
    await said(groupAtBody({ group, member: other, text: `今天的会改到三点${tag}` }), groupChat);
    await said(groupAtBody({ group, member: person, text: `btw my new number ends in ${tag}` }), groupChat);
    await said(groupAtBody({ group, member: person, text: `我其實下週要複診${tag}，先別講` }), groupChat);
    await said(c2cBody({ user: person, text: `其实我下周要去复查${tag}` }), privateChat);

    const before = await promptTurns(groupChat, other);
    expect(before.some((t) => t.includes(`梧桐路${tag}`))).toBe(true);
    expect(await storedTurns(privateChat, `复查${tag}`)).toBe(1);

    const res = await api("/api/leave-out", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ account: `qq:user:${person}`, forget: true }),
    });
    expect(res.status).toBe(200);

    const after = await promptTurns(groupChat, other);
    expect(after.join("\n")).not.toContain(`梧桐路${tag}`);
    expect(after.join("\n")).not.toContain(`ends in ${tag}`);
    expect(after.some((t) => t.includes(`三点${tag}`))).toBe(true);
    expect(after.join("\n")).not.toContain(`複診${tag}`);
    for (const needle of [`梧桐路${tag}`, `ends in ${tag}`, `複診${tag}`])
      expect(await storedTurns(groupChat, needle), needle).toBe(0);
    expect(await storedTurns(privateChat, `复查${tag}`)).toBe(0);
    expect(await storedTurns(groupChat, `三点${tag}`)).toBe(1);
  });
});
