// Nothing said in a shared chat reveals private material (docs/invariants.md#nothing-said-in-a-shared-chat-reveals-private-material).
// A person's private material — private and secret_like items of their person, account and
// private-chat scopes, their private chat's log and daily summary — against everything a group or
// channel turn puts before the model: the mandatory block, recall and history recall (context
// preview and real turns over D1), a cluster link with soft scope on, and a follow-up that
// quotes the private words.
// Every check comes with a public control that the same path must return.
//
// Own file: identity, admins, two declared people and a chat domain are set through the stored
// settings, which every test of a file shares; the world is tests/support/group-turn-world.ts.
import { env } from "cloudflare:workers";
import { sessionIdOf } from "@src/domain/sessions/session-id";
import { beforeAll, describe, it } from "vitest";
import {
  ADMIN_G,
  ALICE,
  ALICE_G,
  ALICE_GUILD,
  ALICE_PRIVATE,
  ALICE_QQ,
  BOB_G,
  CAROL,
  CHANNEL,
  DM,
  GROUP,
  hiddenItems,
  leaks,
  registerGroupWorld,
  settings,
  world,
} from "../support/group-turn-world";
import { groupBodyWithIdentity, uid as idOf } from "../support/identity";
import { newMemory, seedMemory, uid } from "../support/memory";
import { everything, preview } from "../support/preview";
import { logLines } from "../support/private-material";
import { registerChat, sessionsApi } from "../support/sessions";
import { say, toolTurn } from "../support/turns";

beforeAll(registerGroupWorld);

describe("a group turn's context holds none of a member's private material", () => {
  it.for([false, true])(
    "mandatory block, recall and history recall, asked by the person, another person, an undeclared member and an admin (soft scope %s)",
    async (softScope, { expect }) => {
      await settings(softScope);
      try {
        const w = await world();
        const text = `${w.tag} 爱丽丝 医院 复查 银行卡 离职 病历 身份证 甲状腺 ${w.hiddenIds.join(" ")}`;
        for (const sender of [ALICE_G, BOB_G, CAROL, ADMIN_G]) {
          const p = await preview({ chat: GROUP, sender, name: "发问的人", text });
          const seen = everything(p);
          expect({ sender, leaks: leaks(seen, w), items: hiddenItems(p, w) }).toEqual({
            sender,
            leaks: [],
            items: [],
          });
          // Controls: the group's own memory, log and summary reach the same turn.
          expect(p.recalled.map((r) => r.text)).toContain(w.open.groupItem);
          expect(seen).toContain(`小明: ${w.open.groupLog}`);
          expect(p.mandatory.summary).toBe(w.open.groupSummary);
          // Another group's log is not this group's history.
          expect(seen).not.toContain(w.open.siblingLog);
          if (sender === ALICE_G) {
            // The declared person's own public item is read in the group, pinned.
            expect(p.scopes.readable).toContain(`person:${ALICE}`);
            expect(p.mandatory.pinned.map((i) => i.nodeId)).toContain(w.ids.personPublic);
          }
          if (softScope) {
            // Soft scope carries public portable items of other scopes: the private chat's public
            // one and the person's public one, for every sender.
            expect(seen).toContain(w.open.chatPublic);
            expect(seen).toContain(w.open.personPublic);
          } else {
            expect(seen).not.toContain(w.open.chatPublic);
          }
        }
        // The person's own private chat does get all of it: the texts are findable.
        const own = everything(await preview({ chat: ALICE_PRIVATE, text }));
        expect(leaks(own, w).sort()).toEqual(
          [
            "accountSecret",
            "chatPrivate",
            "chatSecret",
            "personPrivate",
            "personSecret",
            "privateLog",
            "privateSummary",
          ].sort(),
        );
      } finally {
        await settings();
      }
    },
  );

  it("a channel turn holds only public items; the person's own guild DM holds the private ones", async ({
    expect,
  }) => {
    const w = await world();
    const text = `${w.tag} 爱丽丝 医院 复查 银行卡 身份证 离职 病历 甲状腺`;
    for (const sender of [ALICE_GUILD, CAROL, ADMIN_G]) {
      const p = await preview({ chat: CHANNEL, sender, text });
      expect({ sender, leaks: leaks(everything(p), w), items: hiddenItems(p, w) }).toEqual({
        sender,
        leaks: [],
        items: [],
      });
      expect(p.recalled.map((r) => r.text)).toContain(w.open.channelItem);
      if (sender === ALICE_GUILD) expect(everything(p)).toContain(w.open.personPublic);
    }
    const dm = await preview({ chat: DM, sender: ALICE_GUILD, text });
    expect(dm.scopes.readable).toContain(`person:${ALICE}`);
    expect(everything(dm)).toContain(w.hidden.personPrivate);
    expect(everything(dm)).toContain(w.hidden.personSecret);
  });

  it("a OneBot account that is the same in the group and in private keeps its private items in private", async ({
    expect,
  }) => {
    const tag = uid();
    const group = `onebot:group:8${ALICE_QQ.slice(1)}`;
    const privateChat = `onebot:private:${ALICE_QQ}`;
    const hidden = {
      secret: `爱丽丝 ${tag} 的门禁卡号在私聊里说过`,
      private: `爱丽丝 ${tag} 私下说想换工作`,
      log: `私聊 ${tag} 记录：门禁卡和换工作的事`,
    };
    const open = `爱丽丝 ${tag} 在哪里都说喜欢跑步`;
    const account = `account:onebot:user:${ALICE_QQ}`;
    const [secretId] = await seedMemory([
      newMemory(account, hidden.secret, { importance: 0.99, sensitivity: "secret_like" }),
      newMemory(account, hidden.private, { importance: 0.99, sensitivity: "private" }),
      newMemory(account, open, { importance: 0.99 }),
    ]);
    await logLines([{ chat: privateChat, sender: ALICE_QQ, nick: "爱丽丝", text: hidden.log }]);
    const text = `${tag} 门禁卡 换工作 跑步`;
    const found = (seen: string) =>
      Object.entries(hidden)
        .filter(([, t]) => seen.includes(t))
        .map(([name]) => name)
        .sort();
    const inGroup = await preview({ chat: group, sender: ALICE_QQ, text });
    expect(inGroup.scopes.readable).toContain(account);
    expect(found(everything(inGroup))).toEqual([]);
    expect(everything(inGroup)).toContain(open);
    const { answers, received } = await toolTurn(group, ALICE_QQ, [
      { name: "memory_search", args: { query: text, limit: 1000 } },
      { name: "memory_forget", args: { id: secretId } },
      { name: "search_chat_history", args: { query: text, limit: 1000 } },
      { name: "history_recent", args: { chat: privateChat, limit: 1000 } },
    ]);
    expect(found(received)).toEqual([]);
    expect(answers[0]).toContain(open);
    // The person's own private chat, under the same account, gets all of it.
    const own = await preview({ chat: privateChat, text });
    expect(found(everything(own))).toEqual(["log", "private", "secret"]);
  });

  it("a confirmed link of the person's private chat into a group, soft scope on, gives the group the public item only", async ({
    expect,
  }) => {
    const w = await world();
    const linkedGroup = `qq:group:${idOf("L")}`;
    await registerChat(linkedGroup);
    await logLines([{ chat: linkedGroup, sender: "XM", nick: "小明", text: `本群 ${w.tag} 爬山医院的讨论` }]);
    await settings(true);
    const linked = await sessionsApi(`/${linkedGroup}/link`, { with: ALICE_PRIVATE, confirm: true });
    expect(linked.status).toBe(200);
    try {
      const text = `${w.tag} 爱丽丝 医院 复查 银行卡 离职 病历 身份证 甲状腺`;
      for (const sender of [ALICE_G, BOB_G, ADMIN_G]) {
        const p = await preview({ chat: linkedGroup, sender, text });
        expect(p.scopes.readable).toContain(`chat:${ALICE_PRIVATE}`);
        expect({ sender, leaks: leaks(everything(p), w), items: hiddenItems(p, w) }).toEqual({
          sender,
          leaks: [],
          items: [],
        });
        expect(p.recalled.map((r) => r.text)).toContain(w.open.chatPublic);
        // The private chat's summary is never the linked group's.
        expect(p.mandatory.summary).toBeNull();
      }
      const { answers, received } = await toolTurn(linkedGroup, ALICE_G, [
        { name: "memory_search", args: { query: text, limit: 1000 } },
        { name: "search_chat_history", args: { query: `${w.tag} 医院 复查`, limit: 1000 } },
        { name: "recall_cross_chat", args: { query: `${w.tag} 医院 复查`, limit: 1000 } },
        { name: "history_recent", args: { chat: ALICE_PRIVATE, limit: 1000 } },
      ]);
      expect(leaks(received, w)).toEqual([]);
      expect(answers[0]).toContain(w.open.chatPublic);
      expect(answers[1]).toContain(`本群 ${w.tag} 爬山医院的讨论`);
      expect(answers[3]).toContain("拒绝");
    } finally {
      await sessionsApi(`/${sessionIdOf(ALICE_PRIVATE)}/unlink`, {});
      await settings();
    }
  });

  it("a follow-up in a group that quotes the private words, by another member, the person and an admin, brings none of them back", async ({
    expect,
  }) => {
    const w = await world();
    const groupId = idOf("F");
    const group = `qq:group:${groupId}`;
    const groupNote = `群里 ${w.tag} 说过爬山后要去医院探望`;
    await seedMemory([newMemory(`chat:${group}`, groupNote)]);
    const asked = [
      [BOB_G, `爱丽丝是不是私下说过 ${w.tag} 下个月要去医院复查？`],
      [ALICE_G, `我私下说的 ${w.tag} 银行卡尾号和离职计划是什么？`],
      [ADMIN_G, `管理员问：${w.tag} 爱丽丝的病历号、身份证号、私聊摘要`],
    ] as const;
    const replies: string[] = [];
    for (const [member, text] of asked) {
      replies.push(await say(groupBodyWithIdentity({ group: groupId, member, text }), group));
    }
    expect(leaks(replies.join("\n"), w)).toEqual([]);
    // The offline model answers from what was recalled: the group's own note, so recall ran.
    expect(replies[0]).toContain(groupNote);
    const { results } = await env.DB.prepare("SELECT text FROM messages WHERE chat_key = ?")
      .bind(group)
      .all<{ text: string }>();
    expect(leaks(JSON.stringify(results), w)).toEqual([]);
    const next = await preview({
      chat: group,
      sender: ALICE_G,
      text: `接着刚才说的 ${w.tag}：去医院复查甲状腺、银行卡尾号、月底交辞呈，到底是什么？`,
    });
    expect(next.mandatory.recentTurns.length).toBeGreaterThan(0);
    expect({ leaks: leaks(everything(next), w), items: hiddenItems(next, w) }).toEqual({
      leaks: [],
      items: [],
    });
    expect(next.recalled.map((r) => r.text)).toContain(groupNote);
  });
});
