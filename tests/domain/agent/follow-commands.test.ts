import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { Settings } from "@src/domain/config/settings";
import { describe, it } from "vitest";
import { ADMIN, MEMBER, withIdentity } from "../../fakes/identity-settings";
import { InMemorySettingsAdmin } from "../../fakes/in-memory-settings-admin";
import { messageEvent } from "../../fakes/inbound";
import { TEST_NOW, turnPorts } from "../../fakes/turn-ports";
import { turnContext } from "../../support/turn-context";

const GROUP = "qq:group:G1";

async function say(
  chat: string,
  sender: string,
  text: string,
  admin: InMemorySettingsAdmin,
  settings: Settings = withIdentity(),
) {
  const event = messageEvent({ chat, text, sender: sender.split(":")[2] ?? sender });
  const result = await runTurn(
    turnContext(event, {
      text,
      settings,
      now: TEST_NOW,
    }),
    turnPorts({ settingsAdmin: admin }),
    defaultTurnRegistry(),
  );
  if (!result.ok) throw new Error("turn failed");
  return { reply: result.value.replies.join("\n"), audit: result.value.audit };
}

describe("/follow and /unfollow", () => {
  it("an admin follows and unfollows the current group; the stored list says so after each reply", async ({
    expect,
  }) => {
    const admin = new InMemorySettingsAdmin({ var: { identity: { enabled: true, admins: [ADMIN] } } });
    const followed = await say(GROUP, ADMIN, "/follow", admin);
    expect(followed.reply).toContain("✅ 已关注 qq:group:G1");
    expect(admin.stored).toMatchObject({ follow: { groups: [GROUP] } });
    expect(admin.saves[0]?.audit).toMatchObject({
      action: "config.set",
      target: "follow.groups",
      actor: ADMIN,
    });
    const again = await say(GROUP, ADMIN, "/follow", admin);
    expect(again.reply).toContain("已经在关注列表中");
    expect(admin.saves).toHaveLength(1);
    const unfollowed = await say(GROUP, ADMIN, "/unfollow", admin);
    expect(unfollowed.reply).toContain("✅ 已取消关注");
    expect(admin.stored).toMatchObject({ follow: { groups: [] } });
    const not = await say(GROUP, ADMIN, "/unfollow", admin);
    expect(not.reply).toContain("不在关注列表中");
    expect(admin.saves).toHaveLength(2);
  });

  it("refuses members, group arguments and private chats without a group key, changing nothing", async ({
    expect,
  }) => {
    const admin = new InMemorySettingsAdmin();
    const cases: [string, string, string, string][] = [
      [GROUP, MEMBER, "/follow", "不在 identity.admins 中"],
      [GROUP, ADMIN, "/follow qq:group:OTHER", "不带参数"],
      ["qq:private:ADMIN_OPENID", ADMIN, "/follow", "聊天标识"],
      ["qq:private:ADMIN_OPENID", ADMIN, "/follow not-a-key", "不是聊天标识"],
      ["qq:private:ADMIN_OPENID", ADMIN, "/follow qq:private:SOMEONE", "私聊的记录总是保存"],
    ];
    for (const [chat, sender, text, expected] of cases) {
      const { reply, audit } = await say(chat, sender, text, admin);
      expect(reply).toContain(expected);
      expect(audit[0]?.outcome).toMatch(/refused|invalid/);
    }
    expect(admin.saves).toEqual([]);
    // With identity off (the production default) nobody may.
    const off = await say(GROUP, ADMIN, "/follow", admin, {
      ...withIdentity(),
      identity: { ...withIdentity().identity, enabled: false },
    });
    expect(off.reply).toContain("身份系统未启用");
    expect(admin.saves).toEqual([]);
  });

  it("from an admin's private chat follows a named group; '*' is reported, not duplicated", async ({
    expect,
  }) => {
    const admin = new InMemorySettingsAdmin();
    const { reply } = await say("qq:private:ADMIN_OPENID", ADMIN, "/follow qq:group:FAR", admin);
    expect(reply).toContain("✅ 已关注 qq:group:FAR");
    expect(admin.stored).toMatchObject({ follow: { groups: ["qq:group:FAR"] } });
    const all = new InMemorySettingsAdmin({ stored: { follow: { groups: ["*"] } } });
    expect((await say(GROUP, ADMIN, "/unfollow", all)).reply).toContain("含 *");
    expect((await say(GROUP, ADMIN, "/follow", all)).reply).toContain("含 *");
    expect(all.saves).toEqual([]);
  });
});
