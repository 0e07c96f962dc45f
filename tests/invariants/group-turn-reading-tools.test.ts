// Nothing said in a shared chat reveals private material (docs/invariants.md#nothing-said-in-a-shared-chat-reveals-private-material).
// A person's private material — private and secret_like items of their person, account and
// private-chat scopes, their private chat's log and daily summary — against every reading tool
// called from a group or channel turn with adversarial arguments: the items' words and ids,
// other chat keys, huge limits, FTS syntax, slipped-in scopes.
// Every check comes with a public control that the same path must return.
//
// Own file: identity, admins, two declared people and a chat domain are set through the stored
// settings, which every test of a file shares; the world is tests/support/group-turn-world.ts.

import { invalidateCatalogue } from "@src/composition/common/catalogue-cache";
import { sessionIdOf } from "@src/domain/sessions/session-id";
import { beforeAll, describe, it } from "vitest";
import {
  ADMIN_G,
  ADMIN_P,
  ADMIN_PRIVATE,
  ALICE,
  ALICE_G,
  ALICE_GUILD,
  ALICE_P,
  ALICE_PRIVATE,
  BOB_G,
  CAROL,
  type Call,
  CHANNEL,
  GROUP,
  leaks,
  registerGroupWorld,
  SIBLING,
  world,
} from "../support/group-turn-world";
import { createCollection, upload } from "../support/knowledge-api";
import { toolTurn } from "../support/turns";

beforeAll(registerGroupWorld);

describe("reading tools called from a group or channel turn", () => {
  it("memory_search with the private words, their ids, huge limits, FTS syntax and a slipped-in scope finds only public items", async ({
    expect,
  }) => {
    const w = await world();
    const calls: Call[] = [
      { name: "memory_search", args: { query: `${w.tag} 医院 复查 银行卡 离职 病历 身份证`, limit: 1e9 } },
      { name: "memory_search", args: { query: w.hiddenIds.join(" "), limit: 50 } },
      {
        name: "memory_search",
        args: {
          query: `"${w.tag}" OR scope_token : * NEAR(医院 复查) person:${ALICE} chat:${ALICE_PRIVATE}`,
          limit: -5,
          scope: `person:${ALICE}`,
          scopes: [`chat:${ALICE_PRIVATE}`],
          allowed_chats: [ALICE_PRIVATE],
        },
      },
      { name: "memory_search", args: { query: `私下说下个月要去医院复查 ${w.tag}`, limit: 20 } },
    ];
    for (const [chat, sender] of [
      [GROUP, ALICE_G],
      [GROUP, BOB_G],
      [GROUP, CAROL],
      [GROUP, ADMIN_G],
      [CHANNEL, ALICE_GUILD],
    ] as const) {
      const { answers, received } = await toolTurn(chat, sender, calls);
      expect({ chat, sender, leaks: leaks(received, w) }).toEqual({ chat, sender, leaks: [] });
      const home = chat === GROUP ? w.open.groupItem : w.open.channelItem;
      expect(answers[0]).toContain(home);
      expect(answers[3]).toContain(home);
      if (sender === ALICE_G || sender === ALICE_GUILD) expect(answers[0]).toContain(w.open.personPublic);
    }
    // The same search in the person's own private chat finds them: the query is not at fault.
    const own = await toolTurn(ALICE_PRIVATE, ALICE_P, calls);
    expect(own.answers[0]).toContain(w.hidden.personSecret);
    expect(own.answers[0]).toContain(w.hidden.chatSecret);
  });

  it("history tools with the private chat as target, key variants, huge limits and FTS syntax read no private chat", async ({
    expect,
  }) => {
    const w = await world();
    const query = `${w.tag} 医院 复查 甲状腺`;
    const variants = [
      ALICE_PRIVATE,
      `${ALICE_PRIVATE}:cron:x1`,
      `QQ:private:${ALICE_P}`,
      ` ${ALICE_PRIVATE}`,
      `${ALICE_PRIVATE}\n`,
      `qq:dm:${ALICE_P}`,
      sessionIdOf(ALICE_PRIVATE),
      "爱丽丝",
    ];
    const calls: Call[] = [
      { name: "search_chat_history", args: { query, limit: 1e9 } },
      { name: "search_chat_history", args: { query, sender: "爱丽丝", since: "2000-01-01", limit: 20 } },
      { name: "recall_cross_chat", args: { query, limit: 1e9, chat: ALICE_PRIVATE } },
      { name: "history_search", args: { query: `${w.tag} 爬山`, chat: SIBLING } },
      {
        name: "search_chat_history",
        args: { query: `"${w.tag}" OR * NEAR(医院 复查) chat_key:${ALICE_PRIVATE}` },
      },
      ...variants.flatMap((chat): Call[] => [
        { name: "history_search", args: { query, chat, limit: 1e9 } },
        { name: "history_recent", args: { chat, limit: 1e9 } },
      ]),
    ];
    for (const [chat, sender] of [
      [GROUP, ALICE_G],
      [GROUP, ADMIN_G],
      [CHANNEL, ALICE_GUILD],
      [CHANNEL, ADMIN_G],
    ] as const) {
      const { answers, received } = await toolTurn(chat, sender, calls, `${w.tag} 医院 复查`);
      expect({ chat, sender, leaks: leaks(received, w) }).toEqual({ chat, sender, leaks: [] });
      // Controls: the domain's groups are read, log lines and summaries alike.
      expect(answers[0]).toContain(w.open.siblingLog);
      expect(answers[0]).toContain(w.open.groupLog);
      expect(answers[2]).toContain(w.open.siblingLog);
      expect(answers[2]).toContain(w.open.siblingSummary);
      expect(answers[3]).toContain(w.open.siblingLog);
      expect(answers[4]).toContain(w.open.siblingLog);
    }
    // An admin in their own private chat reads the person's private chat: the key is right.
    const fromPrivate = await toolTurn(ADMIN_PRIVATE, ADMIN_P, [
      { name: "history_search", args: { query, chat: ALICE_PRIVATE } },
      { name: "history_recent", args: { chat: ALICE_PRIVATE, limit: 50 } },
    ]);
    expect(fromPrivate.answers[0]).toContain(w.hidden.privateLog);
    expect(fromPrivate.answers[1]).toContain(w.hidden.privateLog);
    // And the person's own private chat reads the domain's summaries, never its own as another chat's.
    const own = await toolTurn(ALICE_PRIVATE, ALICE_P, [{ name: "recall_cross_chat", args: { query } }]);
    expect(own.answers[0]).toContain(w.open.siblingSummary);
  });

  it("memory_forget of the person's private items from a group does not say them there", async ({
    expect,
  }) => {
    const w = await world();
    const others = await toolTurn(GROUP, BOB_G, [
      { name: "memory_forget", args: { id: w.ids.personSecret } },
      { name: "memory_forget", args: { id: w.ids.personPrivate } },
    ]);
    expect(leaks(others.received, w)).toEqual([]);
    expect(others.answers[0]).toContain("找不到");
    const own = await toolTurn(GROUP, ALICE_G, [
      { name: "memory_forget", args: { id: w.ids.personPublic } },
      { name: "memory_forget", args: { id: w.ids.accountSecret } },
      { name: "memory_forget", args: { id: w.ids.chatSecret } },
      { name: "memory_forget", args: { id: w.ids.personSecret } },
      { name: "memory_forget", args: { id: w.ids.personPrivate } },
    ]);
    // Control: the tool works from the group, and names what it forgot when that is public.
    expect(own.answers[0]).toBe(`已忘记：${w.open.personPublic}`);
    expect(own.answers[1]).toContain("找不到");
    expect(own.answers[2]).toContain("找不到");
    expect({ personSecret: own.answers[3], personPrivate: own.answers[4] }).toEqual({
      personSecret: expect.not.stringContaining(w.hidden.personSecret),
      personPrivate: expect.not.stringContaining(w.hidden.personPrivate),
    });
    expect(leaks(own.received, w)).toEqual([]);
  });

  it("context_read and kb_search never open a memory item or a private chat's summary by id", async ({
    expect,
  }) => {
    const w = await world();
    const collection = `trail-${w.tag}`;
    await createCollection(collection);
    await upload(collection, [
      { name: "trail.md", content: `# 路线\n\n## 山顶\n\n${w.tag} 登山路线经过医院后山，山顶有凉亭。` },
    ]);
    // Imported through the admin API: drop the isolate's catalogue copy rather than wait out its TTL.
    invalidateCatalogue();
    const first = await toolTurn(GROUP, ALICE_G, [
      { name: "kb_search", args: { query: `${w.tag} 登山路线 医院`, limit: 1000 } },
    ]);
    const passage = /#(n_[0-9a-f]+)/.exec(first.answers[0] ?? "")?.[1];
    expect(passage).toBeDefined();
    const reads = (id: string): Call[] =>
      (["subtree", "children", "parents"] as const).map((mode) => ({
        name: "context_read",
        args: { node_id: id, mode },
      }));
    const { answers, received } = await toolTurn(GROUP, ALICE_G, [
      { name: "context_read", args: { node_id: passage, mode: "parents" } },
      ...w.hiddenIds.flatMap(reads),
      { name: "kb_search", args: { query: `${w.tag} 医院 复查 银行卡 病历 离职`, limit: 1000 } },
    ]);
    // Control: a node of a readable collection opens.
    expect(answers[0]).toContain(`${collection}/trail.md`);
    expect(leaks(received, w)).toEqual([]);
    for (const answer of answers.slice(1, -1)) expect(answer).toBe("没有这个节点，或当前聊天不能读取它。");
  });

  it("find_chat from a group or channel lists no private chat, by name, key or nickname", async ({
    expect,
  }) => {
    for (const [chat, sender] of [
      [GROUP, ALICE_G],
      [GROUP, ADMIN_G],
      [CHANNEL, ADMIN_G],
    ] as const) {
      const { answers } = await toolTurn(chat, sender, [
        { name: "find_chat", args: { query: "爱丽丝" } },
        { name: "find_chat", args: { query: ALICE_P } },
        { name: "find_chat", args: { query: "private" } },
        { name: "find_chat", args: {} },
        { name: "find_chat", args: { query: "爬山" } },
      ]);
      for (const answer of answers) expect(answer).not.toContain(ALICE_PRIVATE);
      // Control: a sibling group is found by its title.
      expect(answers[4]).toContain(SIBLING);
    }
  });
});
