// Own file: a chat domain is set through the stored settings, which every test of a file shares.
// A group's own turns read its marked messages ("我下个月去做手术，别外传"), and the bot's reply
// may repeat them: the offline model echoes what it was told, a real one may quote it. Such a
// reply is marked like what it repeats (docs/invariants.md#one-read-gate), so a sibling chat's
// history tools never serve it and the group's daily summary leaves it out; a reply of a turn
// that held nothing marked stays readable to the sibling.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, it } from "vitest";
import type { ChatSession } from "../../src/durable-objects/chat-session";
import { uid as idOf } from "../support/identity";
import { uid } from "../support/memory";
import { siblingGroups } from "../support/sibling-groups";
import { inGroupChat, toolTurn } from "../support/turns";
import { eventually } from "../support/wait";

const run = uid().slice(0, 6);
const A = idOf("GA");
const GROUP_A = `qq:group:${A}`;
const GROUP_B = `qq:group:${idOf("GB")}`;
/** A third group whose turns never held anything marked: the control. */
const C = idOf("GC");
const GROUP_C = `qq:group:${C}`;
const MEMBER = idOf("MA");
const MEMBER_B = idOf("MB");
const SECRET = `手术${run}`;
const OPEN = `爬山${run}`;

beforeAll(async () => {
  await siblingGroups(`team${run}`, GROUP_A, GROUP_B, GROUP_C);
});

type LogRow = { direction: string; text: string; private_marked: number };

/** A group's log once the bot's replies to `count` messages are in it. */
const logOnceAnswered = (chat: string, count: number) =>
  eventually(async () => {
    const rows = await runInDurableObject(env.CHAT_SESSION.getByName(chat), (_o: ChatSession, state) =>
      state.storage.sql
        .exec<LogRow>("SELECT direction, text, private_marked FROM messages WHERE chat_key = ?", chat)
        .toArray(),
    );
    return rows.filter((r) => r.direction === "out").length >= count ? rows : undefined;
  });

/** What group B's history tools answer about `query` in `chat`, each tool's answer joined. */
async function siblingReads(chat: string, query: string): Promise<string> {
  const turn = await toolTurn(GROUP_B, MEMBER_B, [
    { name: "search_chat_history", args: { query, limit: 20 } },
    { name: "recall_cross_chat", args: { query, limit: 20 } },
    { name: "history_search", args: { query, chat, limit: 20 } },
    { name: "history_recent", args: { chat, limit: 50 } },
  ]);
  return turn.answers.join("\n");
}

describe("a reply that may repeat marked words is marked like them", () => {
  it.for([
    ["in the message it answers", [`我下个月去做${SECRET}，别外传`, `周末谁去${OPEN}？`]],
    ["in a turn of the short-term context", [`我下个月去做${SECRET}`, "这个别说出去哈", "今天天气不错"]],
  ] as const)("holds a marked statement %s away from the sibling", async ([, messages], { expect }) => {
    for (const text of messages) {
      const reply = await inGroupChat(A, MEMBER, text);
      expect(reply).not.toBe("");
    }
    const rows = await logOnceAnswered(GROUP_A, messages.length);
    const repeats = rows.filter((r) => r.direction === "out" && r.text.includes(SECRET));
    // The offline model echoes what it was told: the reply repeats the marked words.
    expect(repeats.length).toBeGreaterThan(0);
    for (const r of repeats) expect(r.private_marked).toBe(1);
    expect(await siblingReads(GROUP_A, SECRET)).not.toContain(SECRET);
  });

  it("leaves a reply of a turn that held nothing marked readable to the sibling", async ({ expect }) => {
    const text = `明天${OPEN}的人几点集合`;
    await inGroupChat(C, idOf("MC"), text);
    const rows = await logOnceAnswered(GROUP_C, 1);
    const echo = rows.find((r) => r.direction === "out" && r.text.includes(`明天${OPEN}`));
    expect(echo?.private_marked).toBe(0);
    // The bot's echo itself, not only the member's message, reaches the sibling.
    expect(await siblingReads(GROUP_C, `明天${OPEN}`)).toContain(`收到：「明天${OPEN}`);
  });
});
