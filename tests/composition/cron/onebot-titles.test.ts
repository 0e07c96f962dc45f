// OneBot chat names reach chats.title from the chat object's flush (never read on the ACK
// path): a group's group_name, a friend's nickname for a private chat. An event without a
// name keeps the stored one, a renamed group's new name wins, and the sessions API shows it.
import { env, exports } from "cloudflare:workers";
import { groupTitlesJob } from "@src/composition/cron/group-titles-job";
import { sessionIdOf } from "@src/domain/sessions/session-id";
import { describe, it } from "vitest";
import { groupInfo, runGroupTitles } from "../../support/group-titles";
import { oneBotMessage, text } from "../../support/onebot-events";
import { signedOneBotRequest } from "../../support/onebot-signing";
import { messageRows } from "../../support/qq-events";
import { registerChat, sessionsApi } from "../../support/sessions";
import { eventually } from "../../support/wait";

const url = "https://bot.test/webhook/onebot";

function message(
  chat: { group: number } | { user: number },
  messageId: number,
  extra: { groupName?: string; nickname?: string; card?: string } = {},
) {
  return oneBotMessage({
    kind: "group" in chat ? "group" : "private",
    user: "user" in chat ? chat.user : 20001,
    ...("group" in chat ? { group: chat.group } : {}),
    messageId,
    segments: [text(`消息 ${messageId}`)],
    rawMessage: `消息 ${messageId}`,
    ...extra,
  });
}

const send = async (body: string) => {
  const res = await exports.default.fetch(await signedOneBotRequest(url, body));
  if (res.status !== 204) throw new Error(`webhook answered ${res.status}`);
};

async function titleOf(chatKey: string): Promise<string | null | undefined> {
  const row = await env.DB.prepare("SELECT title FROM chats WHERE chat_key = ?1")
    .bind(chatKey)
    .first<{ title: string | null }>();
  return row ? row.title : undefined;
}

const untilTitle = (chatKey: string, want: string) =>
  eventually(async () => ((await titleOf(chatKey)) === want ? want : undefined));

/** The chat's log holds two messages and its object has flushed every row (the chat's touch) to D1. */
const seenTwice = (chatKey: string) =>
  eventually(async () => {
    const logged = (await messageRows(chatKey)).length;
    const { unflushed } = await env.CHAT_SESSION.getByName(chatKey).stats();
    return logged >= 2 && unflushed === 0 ? true : undefined;
  });

describe("OneBot chat titles", () => {
  it("a group's name is stored, kept when an event has none, and replaced when the group is renamed", async ({
    expect,
  }) => {
    const group = 900_000 + Math.floor(Math.random() * 90_000);
    const chatKey = `onebot:group:${group}`;
    // Followed, so its messages are stored and the flush can be waited for.
    await exports.default.fetch(
      new Request("https://bot.test/api/settings", {
        method: "PUT",
        headers: { authorization: "Bearer test-admin-token", "content-type": "application/json" },
        body: JSON.stringify({ follow: { groups: [chatKey] } }),
      }),
    );
    await send(message({ group }, 1, { groupName: "周末露营群" }));
    expect(await untilTitle(chatKey, "周末露营群")).toBe("周末露营群");

    await send(message({ group }, 2));
    await seenTwice(chatKey);
    expect(await titleOf(chatKey)).toBe("周末露营群");

    await send(message({ group }, 3, { groupName: "  露营与徒步  " }));
    expect(await untilTitle(chatKey, "露营与徒步")).toBe("露营与徒步");

    const info = await sessionsApi<{ session: { title: string; sessionId: string } }>(
      `/${encodeURIComponent(chatKey)}`,
    );
    expect(info.body.session).toMatchObject({ title: "露营与徒步", sessionId: sessionIdOf(chatKey) });
    const found = await sessionsApi<{ sessions: { chatKey: string; title: string }[] }>("?all=true");
    expect(found.body.sessions.find((s) => s.chatKey === chatKey)?.title).toBe("露营与徒步");
  });

  it("a private chat is named by the friend's nickname, never by a group card", async ({ expect }) => {
    const user = 30_000_000 + Math.floor(Math.random() * 1_000_000);
    const chatKey = `onebot:private:${user}`;
    await send(message({ user }, 7, { nickname: "阿强", card: "三群的强哥" }));
    expect(await untilTitle(chatKey, "阿强")).toBe("阿强");
  });

  it("a group event without group_name leaves the title empty: the alias is the admin's", async ({
    expect,
  }) => {
    const group = 990_000 + Math.floor(Math.random() * 9_000);
    const chatKey = `onebot:group:${group}`;
    await send(message({ group }, 11));
    const row = await eventually(async () => ((await titleOf(chatKey)) === undefined ? undefined : true));
    expect(row).toBe(true);
    expect(await titleOf(chatKey)).toBeNull();
  });

  it("the cron names untitled groups through get_group_info, never over a name an event gave", async ({
    expect,
  }) => {
    const base = 500_000 + Math.floor(Math.random() * 90_000);
    const [untitled, failing, titled] = [base, base + 1, base + 2].map((g) => `onebot:group:${g}`) as [
      string,
      string,
      string,
    ];
    await registerChat(untitled, Date.now() + 3);
    await registerChat(failing, Date.now() + 2);
    await registerChat(titled, Date.now() + 1, "事件里的群名");
    const { report, asked } = await runGroupTitles((group) =>
      group === base + 1
        ? Response.json({ status: "failed", retcode: 1200, wording: "不在群内" })
        : groupInfo(group, `群${group}`),
    );
    expect(report.failed).toBeGreaterThanOrEqual(1);
    expect(await titleOf(untitled)).toBe(`群${base}`);
    expect(await titleOf(failing)).toBeNull();
    expect(await titleOf(titled)).toBe("事件里的群名");
    expect(asked).toContainEqual({ path: "/get_group_info", group: base, auth: "Bearer tok" });
    expect(asked).not.toContainEqual(expect.objectContaining({ group: base + 2 }));
    // Without a OneBot API nothing is asked.
    expect(await groupTitlesJob(env, null)).toEqual({ asked: 0, named: 0, failed: 0 });
  });
});
