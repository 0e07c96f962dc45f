import { env } from "cloudflare:workers";
import { historySearch } from "@src/composition/common/history-search";
import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { TurnContext } from "@src/domain/agent/turn-context";
import type { Settings } from "@src/domain/config/settings";
import { silentLogger } from "@src/domain/kernel/logger";
import { describe, it } from "vitest";
import { ADMIN, MEMBER, withIdentity } from "../../../fakes/identity-settings";
import { messageEvent } from "../../../fakes/inbound";
import { ScriptedChatModel } from "../../../fakes/scripted-chat-model";
import { turnPorts } from "../../../fakes/turn-ports";
import { logEvents, summary } from "../../../support/private-material";
import { turnContext } from "../../../support/turn-context";

/** Tuesday 2026-12-01 15:00 in Shanghai: the turn's clock. */
const NOW = Date.parse("2026-12-01T15:00:00+08:00");
const at = (local: string) => Date.parse(`${local}+08:00`);

type Line = { readonly chat: string; readonly nick: string; readonly at: string; readonly text: string };

/** Written through the production record builder (its tokens carry the sender's name). */
const seed = (lines: readonly Line[]): Promise<void> =>
  logEvents(
    lines.map((l, i) => ({
      chat: l.chat,
      text: l.text,
      sender: l.nick,
      name: l.nick,
      ts: at(l.at),
      id: `${l.chat}#${i}`,
    })),
  );

const unique = () => crypto.randomUUID().slice(0, 8);

function context(chat: string, account: string, settings: Settings, now = NOW): TurnContext {
  const userId = account.split(":").at(-1) ?? "U";
  const event = messageEvent({ chat, text: "查一下", sender: userId, name: userId });
  return turnContext(event, {
    text: "查一下",
    settings,
    now,
  });
}

/** The tool's answer when the model calls `tool` with `args` in this turn. */
async function call(tool: string, args: Record<string, unknown>, ctx: TurnContext): Promise<string> {
  const model = new ScriptedChatModel([
    { toolCalls: [{ id: "t1", name: tool, arguments: JSON.stringify(args) }] },
    { text: "好" },
  ]);
  await runTurn(ctx, turnPorts({ model, history: historySearch(env) }), defaultTurnRegistry(silentLogger));
  return String(model.requests[1]?.messages.find((m) => m.role === "tool")?.content);
}

/** A domain of two groups and a member's private chat, plus a group of another domain. */
function world() {
  const id = unique();
  const chats = {
    g1: `qq:group:G1${id}`,
    g2: `qq:group:G2${id}`,
    g3: `qq:group:G3${id}`,
    privateChat: `qq:private:MEMBER_OPENID${id}`,
    otherDomain: `qq:group:G9${id}`,
  };
  const settings = withIdentity({
    chatDomains: {
      [`team${id}`]: [chats.g1, chats.g2, chats.g3, chats.privateChat],
      [`other${id}`]: [chats.otherDomain],
    },
  });
  return { chats, settings };
}

describe("history tools never leave the chats the gate allows", () => {
  const secrets = (c: ReturnType<typeof world>["chats"]): Line[] => [
    { chat: c.g1, nick: "小明", at: "2026-11-30T10:00:00", text: "一群的团建计划" },
    { chat: c.g2, nick: "小红", at: "2026-11-30T11:00:00", text: "二群的团建计划" },
    { chat: c.privateChat, nick: "小明", at: "2026-11-30T12:00:00", text: "私聊里的团建计划" },
    { chat: c.otherDomain, nick: "小刚", at: "2026-11-30T13:00:00", text: "别的域的团建计划" },
  ];

  /** The world with the four secrets written in its chats. */
  const seededWorld = async () => {
    const w = world();
    await seed(secrets(w.chats));
    return w;
  };
  /** search_chat_history's plain answer to 团建计划 in `chat`, asked by `account`. */
  const searchPlans = (chat: string, account: string, settings: Settings) =>
    call("search_chat_history", { query: "团建计划" }, context(chat, account, settings));

  it("search_chat_history from a group reads the domain's groups, never a private chat or another domain", async ({
    expect,
  }) => {
    const { chats, settings } = await seededWorld();
    // A chat named as the target is refused before the tool runs.
    const named = await call(
      "search_chat_history",
      { query: "团建计划", chat: chats.otherDomain },
      context(chats.g1, MEMBER, settings),
    );
    expect(named).toContain("拒绝");
    expect(named).not.toContain("团建计划");
    const answer = await call(
      "search_chat_history",
      // The model names chats it may not read, under every other key it might try.
      {
        query: "团建计划",
        allowed_chats: [chats.otherDomain, chats.privateChat],
        chats: [chats.otherDomain],
        scope: `chat:${chats.privateChat}`,
      },
      context(chats.g1, MEMBER, settings),
    );
    expect(answer).toContain("一群的团建计划");
    expect(answer).toContain("二群的团建计划");
    expect(answer).not.toContain("私聊里的");
    expect(answer).not.toContain("别的域的");
  });

  /** Who asks for 团建计划 from which chat, the plans the answer holds and those it never does. */
  const readers = [
    {
      name: "an admin in a group reads the group's domain but no private chat",
      from: "g1",
      account: ADMIN,
      reads: ["二群的团建计划"],
      never: ["私聊里的", "别的域的"],
    },
    {
      name: "the member's own private chat reads the whole domain, still not another domain",
      from: "privateChat",
      account: MEMBER,
      reads: ["私聊里的团建计划", "二群的团建计划"],
      never: ["别的域的"],
    },
  ] as const;
  for (const { name, from, account, reads, never } of readers) {
    it(name, async ({ expect }) => {
      const { chats, settings } = await seededWorld();
      const answer = await searchPlans(chats[from], account, settings);
      for (const plan of reads) expect(answer).toContain(plan);
      for (const plan of never) expect(answer).not.toContain(plan);
    });
  }

  it.for([
    ["history_search", "privateChat"],
    ["history_search", "otherDomain"],
    ["history_recent", "privateChat"],
    ["history_recent", "otherDomain"],
  ] as const)("%s from a group naming the %s is refused", async ([tool, target], { expect }) => {
    const { chats, settings } = await seededWorld();
    const answer = await call(
      tool,
      { query: "团建计划", chat: chats[target] },
      context(chats.g1, MEMBER, settings),
    );
    expect(answer).toContain("拒绝");
    expect(answer).not.toContain("团建计划");
  });

  it("recall_cross_chat reads the other groups of the domain only", async ({ expect }) => {
    const { chats, settings } = await seededWorld();
    const answer = await call(
      "recall_cross_chat",
      { query: "团建计划", chat: chats.privateChat, allowed_chats: [chats.otherDomain] },
      context(chats.g1, MEMBER, settings),
    );
    expect(answer).toContain("二群的团建计划");
    // The current chat is not "another chat".
    expect(answer).not.toContain("一群的");
    expect(answer).not.toContain("私聊里的");
    expect(answer).not.toContain("别的域的");
  });
});

describe("recall_cross_chat's summary leg", () => {
  it("adds the daily summaries of the other allowed chats only, whatever chat the model names", async ({
    expect,
  }) => {
    const { chats, settings } = world();
    await seed([{ chat: chats.g2, nick: "小红", at: "2026-11-30T11:00:00", text: "二群今天聊了团建" }]);
    await summary(chats.g1, "一群摘要：露营装备清单", "public", { day: "2026-11-29", at: NOW });
    await summary(chats.g2, "二群摘要：露营装备清单", "public", { day: "2026-11-29", at: NOW });
    await summary(chats.privateChat, "私聊摘要：露营装备清单", "public", { day: "2026-11-29", at: NOW });
    await summary(chats.otherDomain, "别的域摘要：露营装备清单", "public", { day: "2026-11-29", at: NOW });
    for (const named of [chats.privateChat, chats.otherDomain, chats.g1]) {
      const answer = await call(
        "recall_cross_chat",
        { query: "露营装备", chat: named, allowed_chats: [chats.otherDomain, chats.privateChat] },
        context(chats.g1, MEMBER, settings),
      );
      // A chat of another domain is refused outright; a chat of the domain changes nothing.
      if (named === chats.otherDomain) expect(answer).toContain("拒绝");
      else {
        expect(answer).toContain("（相关的每日摘要）");
        expect(answer).toContain(`(${chats.g2}) [2026-11-29 摘要] 二群摘要：露营装备清单`);
      }
      for (const hidden of ["一群摘要", "私聊摘要", "别的域摘要"]) expect(answer).not.toContain(hidden);
    }
    // From the member's private chat the domain's groups are readable, never another domain.
    const fromPrivate = await call(
      "recall_cross_chat",
      { query: "露营装备", allowed_chats: [chats.otherDomain] },
      context(chats.privateChat, MEMBER, settings),
    );
    expect(fromPrivate).toContain("二群摘要");
    expect(fromPrivate).toContain("一群摘要");
    expect(fromPrivate).not.toContain("私聊摘要");
    expect(fromPrivate).not.toContain("别的域摘要");
  });
});

describe("history_search filters by time and sender", () => {
  function days(chat: string): Line[] {
    return [
      { chat, nick: "小明", at: "2026-11-22T23:50:00", text: "周日深夜说烧烤" },
      { chat, nick: "小明", at: "2026-11-23T00:10:00", text: "周一凌晨说烧烤" },
      { chat, nick: "小红", at: "2026-11-25T12:00:00", text: "上周三小红说烧烤" },
      { chat, nick: "小明", at: "2026-11-25T13:00:00", text: "上周三小明去看电影" },
      { chat, nick: "小明", at: "2026-11-29T23:59:00", text: "周日最后一刻说烧烤" },
      { chat, nick: "小明", at: "2026-11-30T09:00:00", text: "昨天早上说烧烤" },
      { chat, nick: "Alice", at: "2026-11-30T20:00:00", text: "yesterday evening barbecue" },
      { chat, nick: "小红", at: "2026-12-01T08:00:00", text: "今天早上说烧烤" },
    ];
  }
  /** The matches of the time asked about: the lines before any other section. */
  const lines = (answer: string) => {
    const all = answer.split("\n");
    const end = all.findIndex((l, i) => i > 0 && l.startsWith("（"));
    return (end < 0 ? all : all.slice(0, end)).filter((l) => l.startsWith("["));
  };
  const single = () => {
    const chat = `qq:group:H${unique()}`;
    return { chat, ctx: context(chat, MEMBER, withIdentity()) };
  };

  it("reads a day named in Chinese in the query", async ({ expect }) => {
    const { chat, ctx } = single();
    await seed(days(chat));
    const answer = await call("history_search", { query: "昨天谁说烧烤了" }, ctx);
    expect(answer).toContain("“昨天”");
    expect(lines(answer).map((l) => l.replace(/^\[[^\]]+\] /, ""))).toEqual(["小明: 昨天早上说烧烤"]);
  });

  it("reads an English day and a weekday of last week", async ({ expect }) => {
    const { chat, ctx } = single();
    await seed(days(chat));
    expect(lines(await call("history_search", { query: "barbecue yesterday" }, ctx))).toEqual([
      "[2026-11-30 20:00 +08:00] Alice: yesterday evening barbecue",
    ]);
    const wednesday = lines(await call("history_search", { query: "上周三说烧烤" }, ctx));
    expect(wednesday[0]).toBe("[2026-11-25 12:00 +08:00] 小红: 上周三小红说烧烤");
    expect(wednesday.every((l) => l.startsWith("[2026-11-25"))).toBe(true);
  });

  it("keeps last week Monday 00:00 to Monday 00:00 local time", async ({ expect }) => {
    const { chat, ctx } = single();
    await seed(days(chat));
    const answer = lines(await call("history_search", { query: "上周说烧烤", limit: 20 }, ctx));
    expect(answer.map((l) => l.slice(1, 17)).sort()).toEqual([
      "2026-11-23 00:10",
      "2026-11-25 12:00",
      "2026-11-29 23:59",
    ]);
  });

  it("takes since and until over a day in the query, and refuses a bound it cannot read", async ({
    expect,
  }) => {
    const { chat, ctx } = single();
    await seed(days(chat));
    const answer = lines(
      await call(
        "history_search",
        { query: "昨天 烧烤", since: "2026-11-29", until: "2026-11-29", limit: 20 },
        ctx,
      ),
    );
    expect(answer).toEqual(["[2026-11-29 23:59 +08:00] 小明: 周日最后一刻说烧烤"]);
    expect(await call("history_search", { query: "烧烤", since: "某一天吧" }, ctx)).toContain("无法识别");
    expect(
      await call("history_search", { query: "烧烤", since: "2026-11-30", until: "2026-11-29" }, ctx),
    ).toContain("since 必须早于 until");
  });

  it("filters by a sender's nickname, given or named in the question", async ({ expect }) => {
    const { chat, ctx } = single();
    await seed(days(chat));
    const given = lines(await call("history_search", { query: "烧烤", sender: "小红", limit: 20 }, ctx));
    expect(given.map((l) => l.replace(/^\[[^\]]+\] /, "")).sort()).toEqual(
      ["小红: 上周三小红说烧烤", "小红: 今天早上说烧烤"].sort(),
    );
    expect(given.length).toBe(2);
    expect(given.every((l) => l.includes("] 小红: "))).toBe(true);
    // "小明上周说了什么": 小明 and last week read from the question; 小明's messages listed.
    const named = lines(await call("history_search", { query: "小明上周说了什么", limit: 20 }, ctx));
    expect(named.map((l) => l.slice(1, 17)).sort()).toEqual([
      "2026-11-23 00:10",
      "2026-11-25 13:00",
      "2026-11-29 23:59",
    ]);
    expect(named.every((l) => l.includes("] 小明: "))).toBe(true);
  });
});

describe("several chats at once", () => {
  it("recall_cross_chat interleaves the chats round-robin, each chat's best first", async ({ expect }) => {
    const { chats, settings } = world();
    await seed([
      ...[1, 2, 3, 4].map((i) => ({
        chat: chats.g2,
        nick: "乙",
        at: `2026-11-2${i}T10:00:00`,
        text: `二群 火锅 ${i}`,
      })),
      ...[1, 2].map((i) => ({
        chat: chats.g3,
        nick: "丙",
        at: `2026-11-2${i}T11:00:00`,
        text: `三群 火锅 ${i}`,
      })),
    ]);
    const hits = await historySearch(env).searchAcross({
      reader: chats.g2,
      chatKeys: [chats.g2, chats.g3],
      text: "火锅",
      limit: 10,
    });
    const order = hits.filter((h) => h.via !== "context").map((h) => h.chatKey);
    expect(order).toEqual([chats.g2, chats.g3, chats.g2, chats.g3, chats.g2, chats.g2]);
    const answer = await call(
      "recall_cross_chat",
      { query: "火锅", limit: 3 },
      context(chats.g1, MEMBER, settings),
    );
    const groups = answer
      .split("\n")
      .map((l) => (l.includes(chats.g2) ? "g2" : l.includes(chats.g3) ? "g3" : "?"));
    expect(groups).toEqual(["g2", "g3", "g2"]);
  });

  it("search_chat_history merges newest first and stops at the cap", async ({ expect }) => {
    const { chats, settings } = world();
    await seed(
      [1, 2, 3, 4, 5, 6].map((i) => ({
        chat: i % 2 === 0 ? chats.g1 : chats.g2,
        nick: "甲",
        at: `2026-11-2${i}T10:00:00`,
        text: `周末 爬山 ${i}`,
      })),
    );
    const answer = await call(
      "search_chat_history",
      { query: "爬山", limit: 4 },
      context(chats.g1, MEMBER, settings),
    );
    const rows = answer.split("\n").filter((l) => l.startsWith("("));
    expect(rows).toHaveLength(4);
    expect(rows.map((l) => l.match(/爬山 (\d)/)?.[1])).toEqual(["6", "5", "4", "3"]);
  });
});
