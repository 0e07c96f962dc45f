import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { dailySummaryJob } from "@src/composition/cron/daily-summaries-job";
import { OfflineChatModel } from "@src/domain/agent/offline-chat-model";
import { dayBounds, daysBefore } from "@src/domain/kernel/local-day";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { chatIndexText } from "@src/domain/text/chat-search-tokens";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { runScheduled } from "@src/workers/scheduled";
import { describe, it } from "vitest";
import { resolvedSettings } from "../../fakes/resolved-settings";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { seedDay } from "../../support/day-log";
import { uid } from "../../support/memory";
import { writeLog } from "../../support/object-log";
import { preview } from "../../support/preview";
import { inPlainPrivateChat } from "../../support/turns";

const ZONE = "Asia/Shanghai";

/** 09:00 Shanghai time of the day before `asOf`'s day. */
function yesterdayMorning(asOf: number): { day: string; at: number } {
  const [day] = daysBefore(asOf, ZONE, 1);
  if (!day) throw new Error("no day");
  return { day, at: dayBounds(day, ZONE).start + 9 * 3_600_000 };
}

type SummaryRow = {
  node_id: string;
  node_type: string;
  kind: string;
  scope_type: string;
  scope_id: string;
  raw_text: string;
  sensitivity: string;
  portable: number;
};
async function summariesOf(chatKey: string): Promise<SummaryRow[]> {
  const { results } = await env.DB.prepare(
    `SELECT node_id, node_type, kind, scope_type, scope_id, raw_text, sensitivity, portable FROM nodes
     WHERE node_type = 'summary' AND (scope_id = ? OR source_id = ?) ORDER BY seq`,
  )
    .bind(chatKey, chatKey)
    .all<SummaryRow>();
  return results;
}

const CAMPING = [
  { user: "A1", nick: "小明", text: "周末一起去露营吧，我查了天气是晴天" },
  { user: "A2", nick: "小红", text: "露营好啊，帐篷谁带？" },
  { user: "A1", nick: "小明", text: "帐篷我来带，睡袋各自准备" },
  { user: "A3", nick: "阿强", text: "露营地选在西湖边那个营地怎么样" },
  { user: "A2", nick: "小红", text: "哈哈哈" },
];

describe("daily summaries", () => {
  it("one summary per followed chat and day, bounded per run, never twice, none for unfollowed groups", async ({
    expect,
  }) => {
    const asOf = Date.now();
    const { at } = yesterdayMorning(asOf);
    const groupA = `onebot:group:${Date.now() % 1e9}1`;
    const groupB = `qq:group:GB${uid()}`;
    const unfollowed = `qq:group:GC${uid()}`;
    const privateChat = `qq:private:UP${uid()}`;
    await seedDay(groupA, at, CAMPING);
    await seedDay(groupB, at, [
      { user: "B1", text: "明天的考试复习到第几章了" },
      { user: "B2", text: "考试范围是第三章到第五章" },
      { user: "B1", text: "第五章的习题好难" },
    ]);
    await seedDay(unfollowed, at, CAMPING);
    await seedDay(privateChat, at, [
      { user: "P1", text: "我下个月搬家，新地址是梧桐路十二号" },
      { user: "P1", text: "搬家公司约好了周六上午" },
      { user: "P1", text: "记得提醒我退掉旧房子的宽带" },
    ]);
    const settings = resolvedSettings({
      follow: { groups: [groupA, groupB] },
      summaries: { chatsPerRun: 2, lookbackDays: 1 },
    });
    const model = new OfflineChatModel();

    // Bounded: two chat-days per run, the rest in the next runs.
    const runs = [];
    for (let i = 0; i < 6; i++) {
      const report = await dailySummaryJob(env, settings, asOf, model);
      runs.push(report);
      if (!report.more) break;
    }
    expect(runs[0]?.more).toBe(true);
    expect(runs.every((r) => r.written + r.skipped <= 2)).toBe(true);

    const [a, b, c, p] = await Promise.all([groupA, groupB, unfollowed, privateChat].map(summariesOf));
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(1);
    expect(c).toHaveLength(0);
    expect(p).toHaveLength(1);
    expect(a?.[0]).toMatchObject({
      node_type: "summary",
      kind: "summary",
      scope_type: "chat",
      scope_id: groupA,
      sensitivity: "public",
      portable: 0,
    });
    expect(a?.[0]?.raw_text).toContain("露营");
    expect(a?.[0]?.raw_text).not.toContain("梧桐路");
    // A private chat's summary stays private, in that private chat.
    expect(p?.[0]).toMatchObject({ scope_id: privateChat, sensitivity: "private" });
    expect(p?.[0]?.raw_text).toContain("搬家");

    // Once more: nothing new, the same nodes.
    const again = await dailySummaryJob(env, settings, asOf, model);
    expect(again.written).toBe(0);
    expect((await summariesOf(groupA)).map((r) => r.node_id)).toEqual(a?.map((r) => r.node_id));
    const records = await env.DB.prepare(
      "SELECT chat_key, status, reason FROM summary_days WHERE chat_key = ?",
    )
      .bind(unfollowed)
      .all();
    expect(records.results).toEqual([{ chat_key: unfollowed, status: "skipped", reason: "not followed" }]);
  });

  it("the cron handler itself writes the summary once, with the settings it loads", async ({ expect }) => {
    const asOf = Date.now();
    const { at } = yesterdayMorning(asOf);
    // The test Worker's AKASHA_CONFIG follows every group.
    const group = `qq:group:GK${uid()}`;
    await seedDay(group, at, CAMPING);
    await runScheduled(env, asOf);
    await runScheduled(env, asOf + 3_600_000);
    const rows = await summariesOf(group);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.raw_text).toContain("露营");
  });

  it("quotes the most replied-to messages offline and never a masked credential", async ({ expect }) => {
    const asOf = Date.now();
    const { at } = yesterdayMorning(asOf);
    const group = `qq:group:GR${uid()}`;
    await seedDay(group, at, [
      { user: "R1", nick: "老王", text: "新版本的发布流程改成每周四上线", id: "Q1" },
      { user: "R2", nick: "小李", text: "收到，周四上线前要先冒烟测试", replyTo: "Q1" },
      { user: "R3", nick: "小赵", text: "那周三晚上封版？", replyTo: "Q1" },
      { user: "R4", nick: "小周", text: "午饭吃什么" },
      { user: "R5", nick: "小吴", text: `测试环境的密码是 ${CREDENTIAL_MASK}` },
      { user: "R4", nick: "小周", text: "楼下新开了面馆" },
    ]);
    const settings = resolvedSettings({ follow: { groups: [group] }, summaries: { extractiveMessages: 2 } });
    await dailySummaryJob(env, settings, asOf, new OfflineChatModel());
    const [row] = await summariesOf(group);
    expect(row?.raw_text).toContain("新版本的发布流程改成每周四上线");
    expect(row?.raw_text).not.toContain(CREDENTIAL_MASK);
    expect(row?.raw_text).not.toContain("密码");
  });

  it("writes the chat model's summary with credentials masked, and records its usage", async ({ expect }) => {
    const asOf = Date.now();
    const { at } = yesterdayMorning(asOf);
    const group = `qq:group:GM${uid()}`;
    await seedDay(group, at, CAMPING);
    const model = new ScriptedChatModel([
      { text: "话题：露营、帐篷\n大家约周末去露营，小明带帐篷。服务器 password: Xk9#mQ2$vL7pR4 不要外传" },
    ]);
    const settings = resolvedSettings({ follow: { groups: [group] } });
    await dailySummaryJob(env, settings, asOf, model);
    expect(JSON.stringify(model.requests[0]?.messages)).toContain("帐篷我来带");
    const [row] = await summariesOf(group);
    expect(row?.raw_text).toContain("大家约周末去露营");
    expect(row?.raw_text).not.toContain("Xk9#mQ2$vL7pR4");
    const usage = await env.DB.prepare("SELECT purpose, ok FROM model_usage WHERE chat_key = ?")
      .bind(group)
      .all();
    expect(usage.results).toEqual([{ purpose: "summary", ok: 1 }]);
  });

  it("falls back to the extractive summary when the model fails", async ({ expect }) => {
    const asOf = Date.now();
    const { at } = yesterdayMorning(asOf);
    const group = `qq:group:GF${uid()}`;
    await seedDay(group, at, CAMPING);
    const model = new ScriptedChatModel([{ error: { kind: "unavailable", message: "down" } }]);
    await dailySummaryJob(env, resolvedSettings({ follow: { groups: [group] } }), asOf, model);
    const [row] = await summariesOf(group);
    expect(row?.raw_text).toContain("露营");
    const day = await env.DB.prepare("SELECT method FROM summary_days WHERE chat_key = ?")
      .bind(group)
      .first();
    expect(day).toEqual({ method: "extractive" });
  });

  it("after /reset the summary is in the mandatory block and answers 我们之前聊过什么 offline; no other chat sees it", async ({
    expect,
  }) => {
    const asOf = Date.now();
    const { at } = yesterdayMorning(asOf);
    const user = `US${uid()}`;
    const chat = `qq:private:${user}`;
    const group = `qq:group:GS${uid()}`;
    await seedDay(chat, at, [
      { user, text: "我想学做红烧肉，需要哪些调料" },
      { user, text: "红烧肉要用冰糖炒糖色吗" },
      { user, text: "红烧肉炖多久比较烂" },
    ]);
    await seedDay(group, at, CAMPING);
    await dailySummaryJob(
      env,
      resolvedSettings({ follow: { groups: [group] } }),
      asOf,
      new OfflineChatModel(),
    );

    await inPlainPrivateChat(user, "今天天气怎么样");
    expect(await inPlainPrivateChat(user, "/reset")).toContain("长期记忆");
    const after = await preview({ chat, text: "我们之前聊过什么" });
    expect(after.mandatory.summary).toContain("红烧肉");
    expect(after.mandatory.recentTurns).toEqual([]);
    const answer = await inPlainPrivateChat(user, "我们之前聊过什么");
    expect(answer).toContain("红烧肉");

    // The group's summary reaches neither the private chat nor another group, soft scope or not.
    const groupSummary = (await summariesOf(group))[0];
    expect(groupSummary?.raw_text).toContain("露营");
    for (const other of [chat, `qq:group:GO${uid()}`]) {
      const seen = await preview({ chat: other, text: "露营 帐篷 之前聊过什么" });
      expect(JSON.stringify(seen)).not.toContain(groupSummary?.node_id);
      expect(JSON.stringify(seen)).not.toContain("帐篷我来带");
    }
    expect(after.mandatory.summary).not.toContain("露营");
  });

  it("reads the chat-day from the chat's own object: with its D1 rows deleted first, the summary is the same day", async ({
    expect,
  }) => {
    const asOf = Date.now();
    const { at } = yesterdayMorning(asOf);
    const group = `qq:group:GD${uid()}`;
    await writeLog(
      CAMPING.map((l, i) => ({
        transport: "qq",
        chatKey: group,
        messageId: `M${uid()}`,
        ts: at + i * 60_000,
        userId: l.user,
        accountKey: `qq:user:${l.user}`,
        nick: l.nick,
        text: l.text,
        tokens: chatIndexText(group, l.text),
        rawJson: null,
        direction: "in" as const,
      })),
    );
    // As for a chat whose log lives in its object: D1 counts it (the object's flush sets its
    // hours) and holds none of its rows.
    await env.DB.prepare(
      `INSERT INTO chat_log_summary (chat_key, last_message_at, in_object) VALUES (?1, ?2, 1)
       ON CONFLICT (chat_key) DO UPDATE SET in_object = 1`,
    )
      .bind(group, at)
      .run();
    await env.DB.prepare("DELETE FROM messages WHERE chat_key = ?1").bind(group).run();
    expect(
      (
        await env.DB.prepare("SELECT sum(messages) AS n FROM chat_log_counts WHERE chat_key = ?1")
          .bind(group)
          .first<{ n: number }>()
      )?.n,
    ).toBe(CAMPING.length);
    const settings = resolvedSettings({ follow: { groups: [group] }, summaries: { lookbackDays: 1 } });
    await dailySummaryJob(env, settings, asOf, new OfflineChatModel());
    const [summary] = await summariesOf(group);
    expect(summary?.raw_text).toContain("露营");
    expect(summary?.raw_text).toContain("帐篷");
    // Each object answers for its own chat alone.
    const other = { chatKey: `qq:group:GX${uid()}`, start: at, end: asOf, limit: 10, leftOut: [] };
    const refused = await runInDurableObject(env.CHAT_SESSION.getByName(group), (o: ChatSession) =>
      o.logDay(other).then(
        () => "read",
        (e: unknown) => String(e),
      ),
    );
    expect(refused).toMatch(/not qq:group:GX/);
  });
});
