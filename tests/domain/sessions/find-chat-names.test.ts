// find_chat by session alias and platform title: admins find any chat by name, members only
// the chats of their domain, and a group or channel turn never lists a private chat — not even
// when its name matches.

import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { Settings } from "@src/domain/config/settings";
import { silentLogger } from "@src/domain/kernel/logger";
import { describe, it } from "vitest";
import { ADMIN, MEMBER, withIdentity } from "../../fakes/identity-settings";
import { InMemorySessionRegistry } from "../../fakes/in-memory-session-registry";
import { messageEvent } from "../../fakes/inbound";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { turnPorts } from "../../fakes/turn-ports";
import { turnContext } from "../../support/turn-context";

const NOW = 1_700_000_000_000;
const settings: Settings = withIdentity({
  chatDomains: { club: ["qq:group:G1", "qq:group:G2", "qq:private:MEMBER_OPENID"] },
});

function registry() {
  const r = new InMemorySessionRegistry();
  r.add("qq:group:G1", { alias: "book-club" });
  r.add("qq:group:G2", { title: "读书会二群" });
  r.add("onebot:group:777", { title: "读书会外群" });
  r.add("qq:private:MEMBER_OPENID", { title: "读书会小明" });
  // A legacy two-part key, from before chats were typed: perhaps a private chat.
  r.add("milky:20002", { title: "读书会老朋友" });
  return r;
}

async function findChat(chat: string, account: string, query: string) {
  const model = new ScriptedChatModel([
    { toolCalls: [{ id: "f1", name: "find_chat", arguments: JSON.stringify({ query }) }] },
    { text: "好" },
  ]);
  const userId = account.split(":").at(-1) ?? "U";
  const event = messageEvent({ chat, text: "找聊天", sender: userId, name: userId });
  await runTurn(
    turnContext(event, {
      identity: { enabled: true, personId: null, declared: false, account } as never,
      text: "找聊天",
      settings,
      now: NOW,
    }),
    turnPorts({ model, sessionAdmin: { registry: registry(), personAccounts: async () => null } }),
    defaultTurnRegistry(silentLogger),
  );
  return model.requests[1]?.messages.filter((m) => m.role === "tool").map((m) => m.content)[0] ?? "";
}

describe("find_chat by alias and title", () => {
  it("an admin in a group finds groups by title, never a private chat", async ({ expect }) => {
    const result = await findChat("qq:group:G1", ADMIN, "读书会");
    expect(result).toContain("qq:group:G2（名称 读书会二群）");
    expect(result).toContain("onebot:group:777");
    expect(result).not.toContain("qq:private:");
    expect(result).not.toContain("小明");
  });

  it("an admin in a group or channel never finds a chat whose type is not known", async ({ expect }) => {
    for (const chat of ["qq:group:G1", "qq:channel:C1"]) {
      for (const query of ["读书会", "老朋友", "milky", "20002"]) {
        const result = await findChat(chat, ADMIN, query);
        expect(result, `${chat} ${query}`).not.toContain("milky:20002");
        expect(result, `${chat} ${query}`).not.toContain("老朋友");
      }
    }
  });

  it("an admin in a private chat finds private chats by name too", async ({ expect }) => {
    const result = await findChat("qq:private:ADMIN_OPENID", ADMIN, "小明");
    expect(result).toContain("qq:private:MEMBER_OPENID（名称 读书会小明）");
    expect(await findChat("qq:private:ADMIN_OPENID", ADMIN, "老朋友")).toContain(
      "milky:20002（名称 读书会老朋友）",
    );
  });

  it("a member finds only chats of the domain, by alias", async ({ expect }) => {
    const result = await findChat("qq:group:G2", MEMBER, "book");
    expect(result).toContain("qq:group:G1（别名 book-club）");
    const outside = await findChat("qq:group:G2", MEMBER, "外群");
    expect(outside).not.toContain("onebot:group:777");
    expect(outside).toContain("没有匹配的聊天");
  });

  it("a member's plain list names the domain's chats by alias and platform title", async ({ expect }) => {
    const result = await findChat("qq:private:MEMBER_OPENID", MEMBER, "");
    expect(result).toContain("qq:group:G1（别名 book-club）");
    expect(result).toContain("qq:group:G2（名称 读书会二群）");
    expect(result).toContain("qq:private:MEMBER_OPENID（当前聊天，名称 读书会小明）");
    expect(result).not.toContain("onebot:group:777");
  });
});
