import { beforeAll, describe, it } from "vitest";
import { settleDreams } from "../support/dream-settle";
import { uid } from "../support/identity";
import { declared, qqUsers, storeIdentity, uids } from "../support/identity-settings";
import { newMemory, scopesOfText, seedMemory, uid as shortId } from "../support/memory";
import { everything, preview } from "../support/preview";
import { inGroupChat, inPrivateChat } from "../support/turns";
import { eventually } from "../support/wait";

const [GROUP, ADMIN, ALICE_GROUP, ALICE_PRIVATE, A, B, MEMBER] = uids(
  "G",
  "ADMIN",
  "ALICEG",
  "ALICEP",
  "UA",
  "UB",
  "MEMBER",
);

const settings = (extra: Record<string, unknown> = {}) =>
  storeIdentity(
    { people: [declared("alice", "爱丽丝", qqUsers(ALICE_GROUP, ALICE_PRIVATE))], admins: qqUsers(ADMIN) },
    { memory: { dreaming: { afterTurns: 2 }, ...extra } },
  );

beforeAll(() => settings());

const inGroup = (member: string, text: string, group = GROUP) => inGroupChat(group, member, text);

describe("only an admin writes the global scope", () => {
  it("a private chat's /remember 决定… stays in that chat, says so, and is not recalled elsewhere", async ({
    expect,
  }) => {
    const tag = shortId();
    const reply = await inPrivateChat(A, `/remember 决定下个月离职去${tag}`);
    expect(reply).toContain("（本聊天，只会在本聊天里提起");
    expect(await scopesOfText(tag)).toEqual([`chat:qq:private:${A}`]);
    // The query names the tag; the stored text is what must not come back.
    const stored = `去${tag}`;
    expect(everything(await preview({ chat: `qq:private:${B}`, text: `离职 ${tag}` }))).not.toContain(stored);
    expect(everything(await preview({ chat: `qq:group:${GROUP}`, text: `离职 ${tag}` }))).not.toContain(
      stored,
    );
    expect(everything(await preview({ chat: `qq:private:${A}`, text: `离职 ${tag}` }))).toContain(stored);
  });

  it("a group member's 记住我们决定… stays in that group", async ({ expect }) => {
    const tag = shortId();
    const reply = await inGroup(MEMBER, `记住我们决定周六去${tag}`);
    expect(reply).toContain("（本聊天）");
    expect(await scopesOfText(tag)).toEqual([`chat:qq:group:${GROUP}`]);
    expect(everything(await preview({ chat: `qq:group:${uid("G")}`, text: `周六 ${tag}` }))).not.toContain(
      `去${tag}`,
    );
    expect(everything(await preview({ chat: `qq:group:${GROUP}`, text: `周六 ${tag}` }))).toContain(
      `去${tag}`,
    );
  });

  it("an admin's explicit /remember of a decision marked global in a group is global", async ({ expect }) => {
    const tag = shortId();
    const reply = await inGroup(ADMIN, `/remember 全局：决定周一${tag}改到十点`);
    expect(reply).toContain("（全局）");
    expect(await scopesOfText(tag)).toEqual(["global:__global__"]);
    expect(everything(await preview({ chat: `qq:private:${B}`, text: `例会 ${tag}` }))).toContain(
      `周一${tag}改到十点`,
    );
  });

  it("dreaming never writes global, not even an admin's private chat", async ({ expect }) => {
    for (const user of [B, ADMIN]) {
      const tag = shortId();
      await inPrivateChat(user, `我们决定下个月一起离职去${tag}`);
      await inPrivateChat(user, "好的就这么定了");
      await settleDreams(`qq:private:${user}`);
      const scopes = await eventually(async () => {
        const s = await scopesOfText(tag);
        return s.length > 0 ? s : undefined;
      });
      expect(scopes).toEqual([`chat:qq:private:${user}`]);
    }
  });
});

describe("a person's private items stay in their own private chats", () => {
  it("/remember 别告诉别人 promises only what holds, and the group never hears it", async ({ expect }) => {
    const tag = shortId();
    const reply = await inPrivateChat(ALICE_PRIVATE, `/remember 别告诉别人：我下个月要${tag}`);
    expect(reply).not.toContain("不会在别处提起");
    expect(reply).toContain("私聊");
    expect(await scopesOfText(tag)).toEqual(["person:alice"]);
    const group = await preview({ chat: `qq:group:${GROUP}`, sender: ALICE_GROUP, text: `下个月 ${tag}` });
    expect(group.scopes.readable).toContain("person:alice");
    expect(everything(group)).not.toContain(`要${tag}`);
    const own = await preview({ chat: `qq:private:${ALICE_PRIVATE}`, text: `下个月 ${tag}` });
    expect(everything(own)).toContain(`要${tag}`);
  });

  it.for([false, true])(
    "the mandatory block and recall of the person's group turn hold only public items (soft scope %s)",
    async (softScope, { expect }) => {
      await settings({ retrieval: { softScope } });
      const tag = shortId();
      await seedMemory([
        newMemory("person:alice", `爱丽丝的银行卡尾号 ${tag}1`, {
          sensitivity: "secret_like",
          importance: 0.99,
        }),
        newMemory("person:alice", `爱丽丝下个月要离职 ${tag}2`, { sensitivity: "private", importance: 0.99 }),
        newMemory("person:alice", `爱丽丝喜欢爬山 ${tag}3`, { importance: 0.99 }),
        newMemory(`account:qq:user:${ALICE_GROUP}`, `爱丽丝的病历号 ${tag}4`, {
          sensitivity: "secret_like",
          importance: 0.99,
        }),
      ]);
      const group = await preview({
        chat: `qq:group:${GROUP}`,
        sender: ALICE_GROUP,
        text: `爱丽丝 ${tag}1 ${tag}2 ${tag}3 ${tag}4`,
      });
      const seen = everything(group);
      expect(seen).toContain(`${tag}3`);
      expect(seen).not.toContain(`尾号 ${tag}1`);
      expect(seen).not.toContain(`离职 ${tag}2`);
      expect(seen).not.toContain(`病历号 ${tag}4`);
      const own = everything(
        await preview({ chat: `qq:private:${ALICE_PRIVATE}`, text: `爱丽丝 ${tag}1 ${tag}2` }),
      );
      expect(own).toContain(`尾号 ${tag}1`);
      expect(own).toContain(`离职 ${tag}2`);
      await settings();
    },
  );
});
