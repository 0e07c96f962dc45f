import { beforeAll, describe, it } from "vitest";
import { c2cBodyWithIdentity, groupBodyWithIdentity, uid as idOf } from "../support/identity";
import { qqUsers, storeIdentity } from "../support/identity-settings";
import { scopesOfText, uid } from "../support/memory";
import { everything, preview } from "../support/preview";
import { say, toolTurn } from "../support/turns";

const ADMIN_G = idOf("ADMING");
const ADMIN_P = idOf("ADMINP");
const STRANGER = idOf("S");

beforeAll(async () => {
  await storeIdentity(
    { people: [], admins: qqUsers(ADMIN_G, ADMIN_P) },
    { memory: { dreaming: { enabled: false } } },
  );
});

/** What a stranger's turn in an unrelated group finds: memory_search's answer and the preview. */
async function strangerFinds(query: string): Promise<string> {
  const group = `qq:group:${idOf("U")}`;
  const { answers } = await toolTurn(
    group,
    STRANGER,
    [{ name: "memory_search", args: { query, limit: 20 } }],
    query,
  );
  return `${answers.join("\n")}\n${everything(await preview({ chat: group, sender: STRANGER, text: query }))}`;
}

describe("nothing said in a private chat reaches global because of its kind", () => {
  it.for([
    ["the issue's wording", "我们决定下个月把服务器迁到新机房{tag}，就我俩知道"],
    ["no marker at all", "我们决定下个月把服务器迁到新机房{tag}"],
    ["the global marker", "全局：我们决定下个月把服务器迁到新机房{tag}"],
  ])(
    "an admin's /remember of a decision in a private chat, with %s, stays in that chat",
    async ([, wording], { expect }) => {
      const tag = uid();
      const text = (wording ?? "").replace("{tag}", tag);
      await say(c2cBodyWithIdentity({ user: ADMIN_P, text: `/remember ${text}` }), `qq:private:${ADMIN_P}`);
      expect(await scopesOfText(tag)).toEqual([`chat:qq:private:${ADMIN_P}`]);
      expect((await strangerFinds(`服务器 新机房 ${tag}`)).includes(`新机房${tag}`)).toBe(false);
    },
  );
});

describe("in a shared chat only an admin's explicit global marker writes global", () => {
  it("an admin's /remember of a decision in a group stays in the group without the marker, goes global with it", async ({
    expect,
  }) => {
    const tag = uid();
    const group = idOf("G");
    const inGroup = (text: string) =>
      say(groupBodyWithIdentity({ group, member: ADMIN_G, text }), `qq:group:${group}`);
    const plain = await inGroup(`/remember 我们决定周一例会改到十点${tag}甲`);
    expect(plain).toContain("（本聊天）");
    expect(await scopesOfText(`${tag}甲`)).toEqual([`qq:group:${group}`].map((g) => `chat:${g}`));
    const marked = await inGroup(`/remember 全局：我们决定周一例会改到十点${tag}乙`);
    expect(marked).toContain("（全局）");
    expect(marked).not.toContain("全局：");
    expect(await scopesOfText(`${tag}乙`)).toEqual(["global:__global__"]);
    const found = await strangerFinds(`例会 十点 ${tag}`);
    expect({ plain: found.includes(`${tag}甲`), marked: found.includes(`${tag}乙`) }).toEqual({
      plain: false,
      marked: true,
    });
  });

  it("a privacy marker wins over the global marker, and a member's marker is not an admin's", async ({
    expect,
  }) => {
    const tag = uid();
    const group = idOf("G");
    await say(
      groupBodyWithIdentity({
        group,
        member: ADMIN_G,
        text: `/remember 全局：我们决定换供应商${tag}甲，别告诉别人`,
      }),
      `qq:group:${group}`,
    );
    await say(
      groupBodyWithIdentity({ group, member: idOf("M"), text: `/remember 全局：我们决定换供应商${tag}乙` }),
      `qq:group:${group}`,
    );
    expect(await scopesOfText(`${tag}甲`)).toEqual([`chat:qq:group:${group}`]);
    expect(await scopesOfText(`${tag}乙`)).toEqual([`chat:qq:group:${group}`]);
  });

  it("memory_write of a decision by an admin goes global only when the admin's own message says so", async ({
    expect,
  }) => {
    const tag = uid();
    const group = `qq:group:${idOf("G")}`;
    const write = (text: string) => [{ name: "memory_write", args: { kind: "decision", text } }];
    // The model cannot make it global by writing the marker itself.
    await toolTurn(group, ADMIN_G, write(`全局：周五停电检修${tag}甲`), "周五停电检修的事你看着办");
    await toolTurn(group, ADMIN_G, write(`周五停电检修${tag}乙`), "全局：周五停电检修的事你看着办");
    await toolTurn(
      `qq:private:${ADMIN_P}`,
      ADMIN_P,
      write(`周五停电检修${tag}丙`),
      "全局：周五停电检修的事你看着办",
    );
    expect(await scopesOfText(`${tag}甲`)).toEqual([group].map((g) => `chat:${g}`));
    expect(await scopesOfText(`${tag}乙`)).toEqual(["global:__global__"]);
    expect(await scopesOfText(`${tag}丙`)).toEqual([`chat:qq:private:${ADMIN_P}`]);
  });
});
