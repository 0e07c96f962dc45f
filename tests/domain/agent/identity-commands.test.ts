import { parseIdentityArgs } from "@src/domain/agent/commands/identity-commands";
import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { TurnContext } from "@src/domain/agent/turn-context";
import type { Settings } from "@src/domain/config/settings";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { PRIVATE_BY_ORIGIN_RULE } from "@src/domain/memory/origin";
import { describe, it } from "vitest";
import { ADMIN, MEMBER, withIdentity } from "../../fakes/identity-settings";
import { InMemoryIdentityDirectory } from "../../fakes/in-memory-identity-directory";
import { TEST_NOW, turnPorts } from "../../fakes/turn-ports";
import { senderContext } from "../../support/turn-context";

const CHAT = "qq:group:G1";
/** Identity answers tie accounts to people and chats: an admin gets them in their own private chat. */
const ADMIN_CHAT = "qq:private:ADMIN_OPENID";
const settings = withIdentity({
  people: [{ id: "owner", displayName: "浅色", accounts: ["qq:user:OWNER_C2C"] }],
});

const context = (sender: string, text: string, s: Settings = settings, chat = CHAT): TurnContext =>
  senderContext(chat, text, sender, s);

async function command(
  sender: string,
  text: string,
  directory = new InMemoryIdentityDirectory(),
  s?: Settings,
  chat = sender === ADMIN ? ADMIN_CHAT : CHAT,
) {
  const result = await runTurn(
    context(sender, text, s, chat),
    turnPorts({ directory }),
    defaultTurnRegistry(),
  );
  if (!result.ok) throw new Error("turn failed");
  return { reply: result.value.replies[0] ?? "", audit: result.value.audit, directory };
}

describe("/identity", () => {
  it("parses link, unlink and whois, and nothing else", ({ expect }) => {
    expect(parseIdentityArgs("link qq:user:A owner")).toEqual({
      op: "link",
      account: "qq:user:A",
      person: "owner",
    });
    expect(parseIdentityArgs("unlink  qq:user:A")).toEqual({ op: "unlink", account: "qq:user:A" });
    expect(parseIdentityArgs("whois")).toEqual({ op: "whois", account: null });
    expect(parseIdentityArgs("whois qq:user:A")).toEqual({ op: "whois", account: "qq:user:A" });
    for (const bad of ["", "link qq:user:A", "unlink", "whois a b", "merge a b"]) {
      expect(parseIdentityArgs(bad)).toBeNull();
    }
  });

  it.for([
    "/identity link qq:user:X owner",
    "/identity unlink qq:user:X",
    "/identity whois qq:user:X",
    "/identity whois",
    "/identity",
  ])("refuses %s for a non-admin with a clear reply, and audits it", async (text, { expect }) => {
    const { reply, audit, directory } = await command(MEMBER, text);
    expect(reply).toContain("需要管理员");
    expect(reply).toContain(`账号 ${MEMBER} 不在 identity.admins 中`);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: MEMBER, outcome: "refused", chatKey: CHAT, at: TEST_NOW });
    expect(directory.links.size).toBe(0);
  });

  it("is refused for everyone while identity is disabled, saying so", async ({ expect }) => {
    const { reply, audit } = await command(ADMIN, "/identity whois", undefined, {
      ...DEFAULT_SETTINGS,
      identity: { ...settings.identity, enabled: false },
    });
    expect(reply).toContain("identity.enabled = false");
    expect(audit).toMatchObject([{ action: "identity.whois", outcome: "refused" }]);
  });

  it("links, looks up and unlinks accounts for an admin, auditing each step", async ({ expect }) => {
    const directory = new InMemoryIdentityDirectory();
    const linked = await command(ADMIN, "/identity link qq:user:MEMBER_G1 owner", directory);
    expect(linked.reply).toBe(`已将 qq:user:MEMBER_G1 关联到人物 owner。${PRIVATE_BY_ORIGIN_RULE}`);
    expect(linked.audit).toEqual([
      {
        action: "identity.link",
        actor: ADMIN,
        target: "qq:user:MEMBER_G1",
        outcome: "ok",
        detail: { via: "command", person: "owner", created: false, previous: null },
        chatKey: ADMIN_CHAT,
        at: TEST_NOW,
      },
    ]);
    expect(directory.links.get("qq:user:MEMBER_G1")).toMatchObject({
      personId: "owner",
      source: "admin",
      linkedBy: ADMIN,
    });

    const who = await command(ADMIN, "/identity whois qq:user:MEMBER_G1", directory);
    expect(who.reply).toContain("人物：owner “浅色”（管理员关联，已声明）");
    expect(who.reply).toContain("同一人物的账号：qq:user:OWNER_C2C（config）");
    expect(who.reply).toContain("管理员：否");
    expect(who.audit).toMatchObject([
      { action: "identity.whois", outcome: "ok", detail: { person: "owner" } },
    ]);

    const self = await command(ADMIN, "/identity whois", directory);
    expect(self.reply).toContain(`账号 ${ADMIN}`);
    expect(self.reply).toContain("管理员：是");

    const unlinked = await command(ADMIN, "/identity unlink qq:user:MEMBER_G1", directory);
    expect(unlinked.reply).toContain("已解除 qq:user:MEMBER_G1 的人物关联（之前：owner）");
    expect(unlinked.audit).toMatchObject([
      { action: "identity.unlink", outcome: "ok", detail: { previous: "owner" } },
    ]);
    expect(directory.links.get("qq:user:MEMBER_G1")).toMatchObject({ personId: null, source: "admin" });
  });

  it("creates a person an admin names for the first time", async ({ expect }) => {
    const { reply, directory } = await command(ADMIN, "/identity link qq:user:NEW bob");
    expect(reply).toBe(`已将 qq:user:NEW 关联到人物 bob（新建人物）。${PRIVATE_BY_ORIGIN_RULE}`);
    expect(directory.persons.get("bob")).toMatchObject({ origin: "admin" });
  });

  it("refuses bad input and config-declared accounts, auditing the attempt", async ({ expect }) => {
    const badAccount = await command(ADMIN, "/identity link 10001 owner");
    expect(badAccount.reply).toContain("参数 account 无效");
    expect(badAccount.audit).toMatchObject([{ outcome: "invalid", detail: { field: "account" } }]);
    const badPerson = await command(ADMIN, "/identity link qq:user:X no/slash");
    expect(badPerson.reply).toContain("参数 person 无效");
    const declared = await command(ADMIN, "/identity unlink qq:user:OWNER_C2C");
    expect(declared.reply).toContain("在配置 identity.people 中声明为 owner");
    expect(declared.audit).toMatchObject([{ outcome: "refused" }]);
    const usage = await command(ADMIN, "/identity frobnicate");
    expect(usage.reply).toContain("/identity link <account> <person>");
    expect(usage.audit).toMatchObject([{ action: "identity.usage", outcome: "invalid" }]);
  });

  it("refuses an admin in a group, auditing it, and links or names nothing", async ({ expect }) => {
    const directory = new InMemoryIdentityDirectory();
    for (const text of ["/identity whois qq:user:OWNER_C2C", "/identity link qq:user:MEMBER_G1 owner"]) {
      const { reply, audit } = await command(ADMIN, text, directory, settings, CHAT);
      expect(reply).toContain("⛔");
      expect(reply).not.toContain("owner");
      expect(reply).not.toContain("浅色");
      expect(audit).toMatchObject([{ outcome: "refused", chatKey: CHAT, detail: { cause: "shared_chat" } }]);
    }
    expect(directory.links.size).toBe(0);
  });

  it("is listed in /help", async ({ expect }) => {
    const { reply } = await command(MEMBER, "/help");
    expect(reply).toContain("/identity link|unlink|whois");
  });
});
