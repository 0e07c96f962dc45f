// Own file: a chat domain is set through the stored settings, which every test of a file shares.
// A group's own turns read its marked messages ("我下个月去做手术，别外传"), and the bot's reply
// may repeat them: the offline model echoes what it was told, a real one may quote it. Such a
// reply is marked like what it repeats (docs/invariants.md#one-read-gate), so a sibling chat's
// history tools never serve it and the group's daily summary leaves it out; a reply of a turn
// that held nothing marked stays readable to the sibling. Each case speaks in a group of its own,
// so that no earlier case's marked turn is in its short-term context.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { beforeAll, describe, it } from "vitest";
import { uid as idOf } from "../support/identity";
import { uid } from "../support/memory";
import { siblingGroups } from "../support/sibling-groups";
import { inGroupChat, toolTurn } from "../support/turns";
import { eventually } from "../support/wait";

const run = uid().slice(0, 6);
const SIBLING = `qq:group:${idOf("GB")}`;
const MEMBER_B = idOf("MB");
const CASES = [
  ["with the request in the message", [`我下个月去做手术${run}a，别外传`], `手术${run}a`],
  ["in traditional characters", [`我下個月去做手術${run}b，別外傳`], `手術${run}b`],
  ["in English", [`between you and me, I'm having surgery${run}c next month`], `surgery${run}c`],
  ["with a typo in the request", [`我下个月去做手术${run}d，别外穿哈`], `手术${run}d`],
  [
    "by a bare request in the speaker's next message",
    [`我下个月去做手术${run}e`, "这个别说出去哈"],
    `手术${run}e`,
  ],
] as const;
const groupOf = (i: number) => idOf(`G${i}`);
const GROUPS = CASES.map((_, i) => groupOf(i));
/** A group whose turns never held anything marked: the control. */
const OPEN_GROUP = idOf("GC");
/** A group where a marked turn sits in the short-term context of the next. */
const RECENT_GROUP = idOf("GR");

beforeAll(async () => {
  const chats = [...GROUPS, OPEN_GROUP, RECENT_GROUP].map((g) => `qq:group:${g}`);
  await siblingGroups(`team${run}`, SIBLING, chats[0] ?? "", ...chats.slice(1));
});

type LogRow = { direction: string; text: string; private_marked: number };

/** A group's log once its members' `said` messages are in it and a reply that holds `echo`. */
const logOnceAnswered = (group: string, said: number, echo: string) =>
  eventually(async () => {
    const chat = `qq:group:${group}`;
    const rows = await runInDurableObject(env.CHAT_SESSION.getByName(chat), (_o: ChatSession, state) =>
      state.storage.sql
        .exec<LogRow>("SELECT direction, text, private_marked FROM messages WHERE chat_key = ?", chat)
        .toArray(),
    );
    const answered = rows.some((r) => r.direction === "out" && r.text.includes(echo));
    return answered && rows.filter((r) => r.direction === "in").length >= said ? rows : undefined;
  });

/** What the sibling's history tools answer about `query` in `group`, each tool's answer joined. */
async function siblingReads(group: string, query: string): Promise<string> {
  const chat = `qq:group:${group}`;
  const turn = await toolTurn(SIBLING, MEMBER_B, [
    { name: "search_chat_history", args: { query, limit: 20 } },
    { name: "recall_cross_chat", args: { query, limit: 20 } },
    { name: "history_search", args: { query, chat, limit: 20 } },
    { name: "history_recent", args: { chat, limit: 50 } },
  ]);
  return turn.answers.join("\n");
}

describe("a reply that may repeat marked words is marked like them", () => {
  it.for(CASES.map((c, i) => [c[0], c[1], c[2], groupOf(i)] as const))(
    "holds a statement marked %s away from the sibling",
    async ([, messages, secret, group], { expect }) => {
      for (const text of messages) expect(await inGroupChat(group, idOf("M"), text)).not.toBe("");
      const rows = await logOnceAnswered(group, messages.length, secret);
      // The offline model echoes what it was told: a reply repeats the marked words.
      const repeats = rows.filter((r) => r.direction === "out" && r.text.includes(secret));
      expect(repeats.length).toBeGreaterThan(0);
      for (const r of repeats) expect(r.private_marked).toBe(1);
      expect(await siblingReads(group, secret)).not.toContain(secret);
    },
  );

  it("marks the reply of a later turn whose short-term context holds the marked statement", async ({
    expect,
  }) => {
    const member = idOf("M");
    await inGroupChat(RECENT_GROUP, member, `我下个月去做手术${run}r，别外传`);
    await inGroupChat(RECENT_GROUP, member, `今天天气不错${run}`);
    const rows = await logOnceAnswered(RECENT_GROUP, 2, `今天天气不错${run}`);
    const later = rows.find((r) => r.direction === "out" && r.text.includes(`今天天气不错${run}`));
    expect(later?.private_marked).toBe(1);
  });

  it("leaves a reply of a turn that held nothing marked readable to the sibling", async ({ expect }) => {
    const said = `明天爬山${run}的人几点集合`;
    await inGroupChat(OPEN_GROUP, idOf("M"), said);
    const rows = await logOnceAnswered(OPEN_GROUP, 1, said);
    expect(rows.find((r) => r.direction === "out" && r.text.includes(said))?.private_marked).toBe(0);
    // The bot's echo itself, not only the member's message, reaches the sibling.
    expect(await siblingReads(OPEN_GROUP, said)).toContain(`收到：「${said}`);
  });
});
