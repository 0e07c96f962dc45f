// Own file: identity, admins, two declared people and a chat domain are set through the stored
// settings, which every test of a file shares. A person's private material — private and
// secret_like items of their person, account and private-chat scopes, their private chat's
// log and daily summary — against everything a group or channel turn puts before the model:
// the mandatory block, recall and history recall (context preview and real turns over D1),
// every reading tool called with adversarial arguments (the items' words and ids, other chat
// keys, huge limits, FTS syntax, slipped-in scopes), a cluster link with soft scope on, a
// follow-up that quotes the private words, and admin commands typed in a group. Every check
// comes with a public control that the same path must return.
import { env } from "cloudflare:workers";
import { beforeAll, describe, it } from "vitest";
import { invalidateCatalogue } from "../../src/composition/shared/catalogue-cache";
import type { TurnPreview } from "../../src/domain/agent/turn-preview";
import { sessionIdOf } from "../../src/domain/sessions/session-id";
import { c2cBodyWithIdentity, groupBodyWithIdentity, uid as idOf } from "../support/identity";
import { createCollection, upload } from "../support/knowledge-api";
import { newMemory, seedMemory, uid } from "../support/memory";
import { everything, preview } from "../support/preview";
import { logLines, summary } from "../support/private-material";
import { registerChat, sessionsApi } from "../support/sessions";
import { storedSettings } from "../support/stored-settings";
import { say, type ToolCallSpec, toolTurn } from "../support/turns";

const run = uid().slice(0, 6);
const ALICE = `alice${run}`;
const BOB = `bob${run}`;
const ALICE_G = idOf("ALICEG");
const ALICE_P = idOf("ALICEP");
const ALICE_GUILD = idOf("ALICEX");
/** A OneBot QQ number: the same account in groups and in the private chat. */
const ALICE_QQ = `9${crypto.getRandomValues(new Uint32Array(1))[0]}`;
const BOB_G = idOf("BOBG");
const BOB_P = idOf("BOBP");
const CAROL = idOf("CAROL");
const ADMIN_G = idOf("ADMING");
const ADMIN_P = idOf("ADMINP");

const GROUP = `qq:group:${idOf("G")}`;
const SIBLING = `qq:group:${idOf("S")}`;
const CHANNEL = `qq:channel:${idOf("C")}`;
const DM = `qq:dm:${idOf("D")}`;
const ALICE_PRIVATE = `qq:private:${ALICE_P}`;
const ADMIN_PRIVATE = `qq:private:${ADMIN_P}`;

async function settings(softScope = false) {
  await storedSettings(env).write(
    JSON.stringify({
      identity: {
        enabled: true,
        people: [
          {
            id: ALICE,
            displayName: "爱丽丝",
            accounts: [
              `qq:user:${ALICE_G}`,
              `qq:user:${ALICE_P}`,
              `qq:user:${ALICE_GUILD}`,
              `onebot:user:${ALICE_QQ}`,
            ],
          },
          { id: BOB, displayName: "鲍勃", accounts: [`qq:user:${BOB_G}`, `qq:user:${BOB_P}`] },
        ],
        admins: [`qq:user:${ADMIN_G}`, `qq:user:${ADMIN_P}`],
        // The person's private chat shares a domain with the groups: only the private-chat
        // rule of the cross-chat reads keeps it out of a group turn.
        chatDomains: { [`team${run}`]: [GROUP, SIBLING, CHANNEL, ALICE_PRIVATE] },
      },
      turn: { historyRecall: 20, contextTokenBudget: 30_000 },
      memory: {
        dreaming: { enabled: false },
        // Anything readable of importance ≥ 0.8 is pinned; recall and search are wide open.
        mandatory: { minImportance: 0.8, maxItems: 50, tokenBudget: 20_000 },
        retrieval: { recallLimit: 20, recallTokenBudget: 5000, searchLimit: 50, softScope },
      },
    }),
    "test",
    Date.now(),
  );
}

beforeAll(async () => {
  await settings();
  await registerChat(GROUP, Date.now(), "登山群");
  await registerChat(SIBLING, Date.now(), "爬山群");
  await registerChat(CHANNEL, Date.now(), "户外频道");
  await registerChat(ALICE_PRIVATE, Date.now(), "爱丽丝");
});

/**
 * One run's material, every text carrying the run's tag. `hidden` is what no group or channel
 * turn may ever hold; the rest are the public controls.
 */
async function world() {
  const tag = uid();
  const hidden = {
    personPrivate: `爱丽丝 ${tag} 私下说下个月要去医院复查甲状腺`,
    personSecret: `爱丽丝 ${tag} 的银行卡尾号是四四一七`,
    accountSecret: `爱丽丝 ${tag} 的身份证号写在私聊备忘里`,
    groupAccountPrivate: `爱丽丝 ${tag} 群账号下记着的离职打算`,
    chatPrivate: `私聊 ${tag} 里说的离职计划：月底交辞呈`,
    chatSecret: `私聊 ${tag} 里说的病历号是七七三一`,
    privateLog: `私聊 ${tag} 记录：爬山后去医院复查甲状腺`,
    privateSummary: `私聊摘要 ${tag}：爬山后去医院复查，银行卡要挂失`,
  };
  const open = {
    personPublic: `爱丽丝 ${tag} 公开说过喜欢登山`,
    chatPublic: `私聊 ${tag} 里公开说过喜欢橘猫`,
    groupItem: `群里 ${tag} 约好周六爬山后去医院探望老师`,
    channelItem: `频道 ${tag} 约好周日徒步`,
    groupLog: `群聊 ${tag} 记录：周六爬山集合在医院门口`,
    siblingLog: `隔壁群 ${tag} 记录：爬山路线经过医院`,
    groupSummary: `群摘要 ${tag}：周六爬山`,
    siblingSummary: `隔壁群摘要 ${tag}：爬山路线和医院`,
  };
  const secretLike = { sensitivity: "secret_like" as const, sensitivitySource: "explicit" as const };
  const privately = { sensitivity: "private" as const, sensitivitySource: "explicit" as const };
  // High importance: the mandatory block would pin every one of them if anything let it.
  const pinned = { importance: 0.99 };
  const ids = await seedMemory([
    newMemory(`person:${ALICE}`, hidden.personPrivate, { ...pinned, ...privately }),
    newMemory(`person:${ALICE}`, hidden.personSecret, { ...pinned, ...secretLike }),
    newMemory(`account:qq:user:${ALICE_P}`, hidden.accountSecret, { ...pinned, ...secretLike }),
    newMemory(`account:qq:user:${ALICE_G}`, hidden.groupAccountPrivate, { ...pinned, ...privately }),
    newMemory(`chat:${ALICE_PRIVATE}`, hidden.chatPrivate, { ...pinned, ...privately }),
    newMemory(`chat:${ALICE_PRIVATE}`, hidden.chatSecret, { ...pinned, ...secretLike }),
    newMemory(`person:${ALICE}`, open.personPublic, pinned),
    newMemory(`chat:${ALICE_PRIVATE}`, open.chatPublic),
    newMemory(`chat:${GROUP}`, open.groupItem),
    newMemory(`chat:${CHANNEL}`, open.channelItem),
  ]);
  const [personPrivate, personSecret, accountSecret, groupAccountPrivate, chatPrivate, chatSecret] = ids;
  const [personPublic, chatPublic, groupItem] = ids.slice(6);
  await logLines([
    { chat: GROUP, sender: "XM", nick: "小明", text: open.groupLog },
    { chat: SIBLING, sender: "XH", nick: "小红", text: open.siblingLog },
    { chat: ALICE_PRIVATE, sender: ALICE_P, nick: "爱丽丝", text: hidden.privateLog },
  ]);
  await summary(GROUP, open.groupSummary, "public");
  await summary(SIBLING, open.siblingSummary, "public");
  const privateSummary = await summary(ALICE_PRIVATE, hidden.privateSummary, "private");
  return {
    tag,
    hidden,
    open,
    hiddenIds: [
      personPrivate,
      personSecret,
      accountSecret,
      groupAccountPrivate,
      chatPrivate,
      chatSecret,
      privateSummary,
    ] as string[],
    ids: { personPrivate, personSecret, accountSecret, chatSecret, personPublic, chatPublic, groupItem },
    privateSummary,
  };
}
type World = Awaited<ReturnType<typeof world>>;

/** The names of the world's private texts that occur in `text`: [] when nothing leaked. */
function leaks(text: string, w: World): string[] {
  return Object.entries(w.hidden)
    .filter(([, t]) => text.includes(t))
    .map(([name]) => name);
}

/** Private node ids among the items a preview pinned or recalled. */
function hiddenItems(p: TurnPreview, w: World): string[] {
  return [...p.mandatory.pinned, ...p.recalled].flatMap((i) =>
    i.nodeId && w.hiddenIds.includes(i.nodeId) ? [i.nodeId] : [],
  );
}

type Call = ToolCallSpec;

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

describe("admin commands typed in a group", () => {
  it("/session export of a person's private chat, asked in a group, posts none of its private memory, summary or log there", async ({
    expect,
  }) => {
    const tag = uid();
    const user = idOf("DAVE");
    const privateChat = `qq:private:${user}`;
    await registerChat(privateChat);
    const hidden = {
      chatPrivate: `戴夫 ${tag} 私下说要搬去外地`,
      chatSecret: `戴夫 ${tag} 的病历号是九九零二`,
      privateSummary: `私聊摘要 ${tag}：要搬家，病历号九九零二`,
      privateLog: `私聊 ${tag} 记录：新地址是梧桐路十二号`,
    };
    await seedMemory([
      newMemory(`chat:${privateChat}`, hidden.chatPrivate, {
        sensitivity: "private",
        sensitivitySource: "explicit",
      }),
      newMemory(`chat:${privateChat}`, hidden.chatSecret, {
        sensitivity: "secret_like",
        sensitivitySource: "explicit",
      }),
    ]);
    await summary(privateChat, hidden.privateSummary, "private");
    await logLines([{ chat: privateChat, sender: user, nick: "戴夫", text: hidden.privateLog }]);
    const found = (text: string) =>
      Object.entries(hidden)
        .filter(([, t]) => text.includes(t))
        .map(([name]) => name)
        .sort();
    const command = `/session export ${privateChat} --log`;

    // Control: in the admin's own private chat the export holds all of it.
    const inPrivate = await say(c2cBodyWithIdentity({ user: ADMIN_P, text: command }), ADMIN_PRIVATE);
    expect(found(inPrivate)).toEqual(["chatPrivate", "chatSecret", "privateLog", "privateSummary"]);

    const groupId = idOf("E");
    const inGroup = await say(
      groupBodyWithIdentity({ group: groupId, member: ADMIN_G, text: command }),
      `qq:group:${groupId}`,
    );
    expect(found(inGroup)).toEqual([]);
  });
});
