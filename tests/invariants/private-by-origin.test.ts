// Own file: identity, a declared person with two private accounts, an admin and dreaming are set
// through the stored settings, which every test of a file shares. What a person tells the bot in
// their private chat is private by origin, whatever its wording
// (docs/invariants.md#private-by-origin): no group turn's prompt, reply, preview or tool result
// holds it — not when the same person speaks in the group, not through soft scope or a cluster
// link — while their own private chats, on every linked account, still do. It becomes
// shareable only on purpose: /share, or the person's clear marker in the same message.
import { env } from "cloudflare:workers";
import { D1MemoryStore } from "@src/adapters/d1/d1-memory-store";
import type { AccountKey } from "@src/domain/chat/chat-address";
import { silentLogger } from "@src/domain/kernel/logger";
import { dream } from "@src/domain/memory/dreaming";
import { beforeAll, describe, it } from "vitest";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { settleDreams } from "../support/dream-settle";
import { dreamTurn } from "../support/dream-turn";
import { auditRowsOnceThere, uid as idOf } from "../support/identity";
import { declared, qqUsers, storeIdentity } from "../support/identity-settings";
import { uid } from "../support/memory";
import { everything, preview } from "../support/preview";
import { registerChat, sessionsApi } from "../support/sessions";
import { inGroupChat, inPrivateChat, toolTurn } from "../support/turns";
import { eventually } from "../support/wait";

const run = uid().slice(0, 6);
const ALICE = `alice${run}`;
const ALICE_G = idOf("ALICEG");
const ALICE_P = idOf("ALICEP");
/** The person's second private account (another platform), linked to the same person. */
const ALICE_QQ = `7${crypto.getRandomValues(new Uint32Array(1))[0]}`;
const BOB_P = idOf("BOBP");
const MEMBER = idOf("M");
const ADMIN_G = idOf("ADMING");
const GROUP_ID = idOf("G");
const GROUP = `qq:group:${GROUP_ID}`;
const ALICE_PRIVATE = `qq:private:${ALICE_P}`;

async function settings(extra: { identity?: boolean; softScope?: boolean } = {}) {
  await storeIdentity(
    {
      enabled: extra.identity ?? true,
      people: [declared(ALICE, "爱丽丝", [...qqUsers(ALICE_G, ALICE_P), `onebot:user:${ALICE_QQ}`])],
      admins: qqUsers(ADMIN_G),
    },
    {
      memory: {
        dreaming: { afterTurns: 2 },
        mandatory: { minImportance: 0.5, maxItems: 50, tokenBudget: 20_000 },
        retrieval: { recallLimit: 20, searchLimit: 50, softScope: extra.softScope ?? false },
      },
    },
  );
}

beforeAll(async () => {
  await settings();
  await registerChat(GROUP, Date.now(), "登山群");
});

const inGroup = (member: string, text: string) => inGroupChat(GROUP_ID, member, text);

/** Everything a group turn by `sender` would hold about `query`: the preview and a memory_search. */
async function groupSees(sender: string, query: string): Promise<string> {
  const p = await preview({ chat: GROUP, sender, text: query });
  const { received } = await toolTurn(
    GROUP,
    sender,
    [{ name: "memory_search", args: { query, limit: 50 } }],
    query,
  );
  return `${everything(p)}\n${received}`;
}

async function rows(fragment: string) {
  const { results } = await env.DB.prepare(
    "SELECT node_id, node_type, sensitivity, sensitivity_source, scope_type || ':' || scope_id AS scope FROM nodes WHERE raw_text LIKE ? ORDER BY seq",
  )
    .bind(`%${fragment}%`)
    .all<{
      node_id: string;
      node_type: string;
      sensitivity: string;
      sensitivity_source: string;
      scope: string;
    }>();
  return results;
}

describe("what a person tells the bot privately stays in their private chats", () => {
  it("/remember in the private chat, with no marker at all, reaches no group turn, even the person's own", async ({
    expect,
  }) => {
    const tag = uid();
    const secret = `在准备考研${tag}`;
    const reply = await inPrivateChat(ALICE_P, `/remember 我${secret}`);
    // The person asks in the group; others ask too.
    for (const sender of [ALICE_G, MEMBER, ADMIN_G]) {
      const answer = await inGroup(sender, `爱丽丝在准备什么 ${tag}`);
      expect({ sender, answer: answer.includes(secret) }).toEqual({ sender, answer: false });
      expect({ sender, seen: (await groupSees(sender, `考研 ${tag}`)).includes(secret) }).toEqual({
        sender,
        seen: false,
      });
    }
    // The reply says where it stays, and how to share it.
    expect(reply).toContain("只会在你和我的私聊里提起");
    expect(reply).toContain("/share m_");
    // Controls: the person's own private chats, on both linked accounts, recall it; another
    // person's private chat does not.
    expect(
      everything(await preview({ chat: ALICE_PRIVATE, sender: ALICE_P, text: `考研 ${tag}` })),
    ).toContain(secret);
    expect(
      everything(
        await preview({ chat: `onebot:private:${ALICE_QQ}`, sender: ALICE_QQ, text: `考研 ${tag}` }),
      ),
    ).toContain(secret);
    expect(
      everything(await preview({ chat: `qq:private:${BOB_P}`, sender: BOB_P, text: `考研 ${tag}` })),
    ).not.toContain(secret);
  });

  it("the issue's wording, 不要外传哦, and a model's memory_write marked public stay private too", async ({
    expect,
  }) => {
    const tag = uid();
    const asked = `在准备考研${tag}甲`;
    const written = `爱丽丝在准备考研${tag}乙`;
    await inPrivateChat(ALICE_P, `/remember 不要外传哦，我${asked}`);
    await toolTurn(ALICE_PRIVATE, ALICE_P, [
      { name: "memory_write", args: { kind: "fact", text: written, sensitivity: "public" } },
    ]);
    // The finding: the offline bot said it in the group when the person asked there.
    const answer = await inGroup(ALICE_G, `我在准备考研${tag}吗`);
    expect({ asked: answer.includes(asked), written: answer.includes(written) }).toEqual({
      asked: false,
      written: false,
    });
    const seen = await groupSees(ALICE_G, `考研 ${tag}`);
    expect({ asked: seen.includes(asked), written: seen.includes(written) }).toEqual({
      asked: false,
      written: false,
    });
    expect((await rows(written)).map((r) => [r.sensitivity, r.sensitivity_source])).toEqual([
      ["private", "origin"],
    ]);
  });

  it("dreaming a private chat, by the rules, stores every statement private and none reaches the group", async ({
    expect,
  }) => {
    const tag = uid();
    const said = `吃榴莲${tag}`;
    await inPrivateChat(ALICE_P, `我最喜欢${said}`);
    await inPrivateChat(ALICE_P, "嗯嗯");
    await settleDreams(`qq:private:${ALICE_P}`);
    const dreamed = await eventually(async () => {
      const r = (await rows(said)).filter((x) => x.node_type === "memory");
      return r.length > 0 ? r : undefined;
    });
    expect(dreamed.map((r) => [r.sensitivity, r.sensitivity_source])).toEqual([["private", "origin"]]);
    expect((await groupSees(ALICE_G, `榴莲 ${tag}`)).includes(said)).toBe(false);
  });

  it("dreaming a private chat through a model that calls a statement public stores it private", async ({
    expect,
  }) => {
    const tag = uid();
    const said = `爱丽丝下周去看海${tag}`;
    const model = new ScriptedChatModel([
      {
        text: JSON.stringify({
          memories: [{ kind: "fact", text: said, importance: 0.9, turn: 0, sensitivity: "public" }],
          archive: [],
          summary: `私聊摘要：去看海${tag}`,
        }),
      },
    ]);
    const store = new D1MemoryStore(env.DB);
    const identity = {
      enabled: true,
      account: `qq:user:${ALICE_P}` as AccountKey,
      personId: ALICE,
      declared: true,
    };
    const report = await dream(
      {
        runId: `dream:${tag}`,
        session: ALICE_PRIVATE,
        turns: [
          dreamTurn(`我下周去看海${tag}`, {
            name: "爱丽丝",
            account: `qq:user:${ALICE_P}`,
            messageId: `M${tag}`,
            ts: Date.now(),
            identity,
          }),
        ],
        now: Date.now(),
        useModel: true,
      },
      { model, store, logger: silentLogger, now: () => Date.now() },
    );
    expect(report.ok).toBe(true);
    expect((await rows(`看海${tag}`)).map((r) => [r.node_type, r.sensitivity, r.sensitivity_source])).toEqual(
      [
        ["memory", "private", "origin"],
        ["summary", "private", "origin"],
      ],
    );
    expect((await groupSees(ALICE_G, `看海 ${tag}`)).includes(`看海${tag}`)).toBe(false);
  });
});

describe("identity off, soft scope on, or a confirmed cluster link: still nothing of a private chat", () => {
  it("a private chat's /remember never reaches a group through soft scope or a confirmed link", async ({
    expect,
  }) => {
    const tag = uid();
    const user = idOf("U");
    const chat = `qq:private:${user}`;
    const said = `养了一只橘猫叫${tag}`;
    await settings({ identity: false, softScope: true });
    try {
      await inPrivateChat(user, `/remember 我${said}`);
      expect((await groupSees(MEMBER, `橘猫 ${tag}`)).includes(said)).toBe(false);
      await registerChat(chat);
      const linked = await sessionsApi(`/${GROUP}/link`, { with: chat, confirm: true });
      expect(linked.status).toBe(200);
      const p = await preview({ chat: GROUP, sender: MEMBER, text: `橘猫 ${tag}` });
      expect(p.scopes.readable).toContain(`chat:${chat}`);
      expect(everything(p).includes(said)).toBe(false);
      // Control: the private chat itself recalls it.
      expect(everything(await preview({ chat, sender: user, text: `橘猫 ${tag}` }))).toContain(said);
    } finally {
      await sessionsApi(`/${chat}/unlink`, {});
      await settings();
    }
  });
});

describe("shareable only on purpose", () => {
  it("/share in the person's private chat, or 可以告诉大家 in the same message, makes it public; /share in a group is refused", async ({
    expect,
  }) => {
    const tag = uid();
    const later = `下个月搬家${tag}`;
    const marked = `下个月结婚${tag}`;
    await inPrivateChat(ALICE_P, `/remember 我${later}`);
    await inPrivateChat(ALICE_P, `/remember 我${marked}，可以告诉大家`);
    const [item] = await rows(later);
    expect(item?.sensitivity).toBe("private");
    // Refused in a group, even by the person, even for their own item, and audited.
    const refused = await inGroup(ALICE_G, `/share ${item?.node_id}`);
    expect(refused).toContain("⛔");
    expect((await groupSees(ALICE_G, `搬家 ${tag}`)).includes(later)).toBe(false);
    const shared = await inPrivateChat(ALICE_P, `/share ${item?.node_id}`);
    expect(shared).toContain(later);
    // The person's group turn reads their public items (another member's does not read them at all).
    const seen = await groupSees(ALICE_G, `搬家 结婚 ${tag}`);
    expect({ later: seen.includes(later), marked: seen.includes(marked) }).toEqual({
      later: true,
      marked: true,
    });
    // The marker is an instruction, not what was remembered.
    expect((await rows(marked)).map((r) => [r.sensitivity, r.sensitivity_source])).toEqual([
      ["public", "explicit"],
    ]);
    const { results } = await env.DB.prepare("SELECT raw_text FROM nodes WHERE raw_text LIKE ?")
      .bind(`%${marked}%`)
      .all<{ raw_text: string }>();
    expect(results.map((r) => r.raw_text.includes("可以告诉大家"))).toEqual([false]);
    const audit = await auditRowsOnceThere(GROUP, (a) => a.action === "memory.share");
    expect(audit.map((a) => a.detail.outcome)).toEqual(["refused"]);
  });
});
