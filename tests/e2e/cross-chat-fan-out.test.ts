// Own file: a chat domain is set through the stored settings, which every test of a file shares.
// A read across chats asks each chat's object; when one object fails, the answer holds the other
// chats' matches and says that one chat was not read — never a silent gap — and a read of that
// chat alone is an error, not "no messages".

import { inboundRecord, type MessageRecord } from "@src/domain/history/message-record";
import { ChatSession } from "@src/durable-objects/chat-session";
import { afterEach, beforeAll, describe, it, vi } from "vitest";
import { messageEvent } from "../fakes/inbound";
import { uid as idOf } from "../support/identity";
import { storeIdentity } from "../support/identity-settings";
import { uid } from "../support/memory";
import { writeLog } from "../support/object-log";
import { registerChat } from "../support/sessions";
import { toolTurn } from "../support/turns";

const run = uid().slice(0, 6);
const GROUP_A = `qq:group:${idOf("FA")}`;
const GROUP_B = `qq:group:${idOf("FB")}`;
const GROUP_C = `qq:group:${idOf("FC")}`;
const WORD = `露营装备清单${run}`;

function said(chat: string, id: string, text: string): MessageRecord {
  const record = inboundRecord(
    messageEvent({
      chat,
      text,
      sender: `S${run}${id}`,
      name: `成员${id}`,
      id: `${run}-${id}`,
      ts: Date.now() - 3_600_000,
    }),
  );
  if (!record) throw new Error("no record");
  return record;
}

beforeAll(async () => {
  await storeIdentity(
    { people: [], admins: [], chatDomains: { [`fan${run}`]: [GROUP_A, GROUP_B, GROUP_C] } },
    { memory: { dreaming: { enabled: false } } },
  );
  for (const [chat, title] of [
    [GROUP_A, "甲群"],
    [GROUP_B, "乙群"],
    [GROUP_C, "丙群"],
  ] as const)
    await registerChat(chat, Date.now(), title);
  await writeLog([said(GROUP_B, "b1", `乙群的${WORD}已经发了`), said(GROUP_C, "c1", `丙群的${WORD}还没定`)]);
});

afterEach(() => vi.restoreAllMocks());

describe("a read across chats when one chat's object fails", () => {
  it("keeps the other chats' matches and says which chats were not read", async ({ expect }) => {
    // Group C's object fails every search (it is the one whose log was written by 成员c1).
    const real = ChatSession.prototype.logSearch;
    vi.spyOn(ChatSession.prototype, "logSearch").mockImplementation(async function (this: ChatSession, q) {
      if ((await this.logSenders()).includes("成员c1")) throw new Error("object unavailable");
      return real.call(this, q);
    });
    const { answers } = await toolTurn(GROUP_A, `S${run}a`, [
      { name: "search_chat_history", args: { query: WORD, limit: 10 } },
      { name: "recall_cross_chat", args: { query: WORD, limit: 10 } },
      { name: "history_search", args: { query: WORD, chat: GROUP_C, limit: 10 } },
    ]);
    const [across, recall, one] = answers;
    for (const answer of [across, recall]) {
      expect(answer).toContain(`乙群的${WORD}`);
      expect(answer).not.toContain(`丙群的${WORD}`);
      expect(answer).toMatch(/有 1 个聊天这次没有读到/);
    }
    expect(one).toMatch(/没有读到聊天/);
    expect(one).not.toMatch(/没有找到|还没有消息/);
  });

  it("reads every chat when none fails, with no note", async ({ expect }) => {
    const { answers } = await toolTurn(GROUP_A, `S${run}a`, [
      { name: "search_chat_history", args: { query: WORD, limit: 10 } },
    ]);
    expect(answers[0]).toContain(`乙群的${WORD}`);
    expect(answers[0]).toContain(`丙群的${WORD}`);
    expect(answers[0]).not.toMatch(/没有读到/);
  });
});
