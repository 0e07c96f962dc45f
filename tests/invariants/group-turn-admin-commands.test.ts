// Nothing said in a shared chat reveals private material (docs/invariants.md#nothing-said-in-a-shared-chat-reveals-private-material).
// A person's private material — private and secret_like items of their person, account and
// private-chat scopes, their private chat's log and daily summary — against admin commands typed
// in a group.
// Every check comes with a public control that the same path must return.
//
// Own file: identity, admins, two declared people and a chat domain are set through the stored
// settings, which every test of a file shares; the world is tests/support/group-turn-world.ts.
import { beforeAll, describe, it } from "vitest";
import { ADMIN_G, ADMIN_P, ADMIN_PRIVATE, registerGroupWorld } from "../support/group-turn-world";
import { c2cBodyWithIdentity, groupBodyWithIdentity, uid as idOf } from "../support/identity";
import { newMemory, seedMemory, uid } from "../support/memory";
import { logLines, summary } from "../support/private-material";
import { registerChat } from "../support/sessions";
import { say } from "../support/turns";

beforeAll(registerGroupWorld);

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
