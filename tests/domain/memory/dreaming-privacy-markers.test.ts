import { OfflineChatModel } from "@src/domain/agent/offline-chat-model";
import { silentLogger } from "@src/domain/kernel/logger";
import { type DreamTurn, dream } from "@src/domain/memory/dreaming";
import { describe, it } from "vitest";
import { InMemoryMemory } from "../../fakes/in-memory-memory";
import { dreamTurn } from "../../support/dream-turn";

const NOW = 1_700_000_000_000;
const GROUP = "qq:group:G1";

let ids = 0;
function turn(text: string, account = "qq:user:A"): DreamTurn {
  ids++;
  return dreamTurn(text, { seq: ids, account, messageId: `m${ids}`, ts: NOW });
}

async function dreamed(turns: DreamTurn[], later: DreamTurn[] = []) {
  const store = new InMemoryMemory();
  await dream(
    { runId: `dream:${GROUP}:${ids}`, session: GROUP, turns, later, now: NOW, useModel: false },
    { model: new OfflineChatModel(), store, logger: silentLogger, now: () => NOW },
  );
  return store.items;
}

describe("a privacy marker in the message after a statement, in a group", () => {
  it.for(["这个别外传", "這個別外傳", "刚才那句别说出去哈", "keep that between us", "别告苏别人"])(
    "%s marks the speaker's statement before it, explicitly, and is not itself remembered",
    async (marker, { expect }) => {
      const items = await dreamed([turn("我喜欢摇滚乐"), turn(marker)]);
      expect(items).toEqual([
        expect.objectContaining({
          text: "小明喜欢摇滚乐",
          sensitivity: "secret_like",
          sensitivitySource: "explicit",
        }),
      ]);
    },
  );

  it("marks only the marker's own speaker's statement, not someone else's in between", async ({ expect }) => {
    const items = await dreamed([
      turn("我喜欢摇滚乐"),
      turn("我喜欢爵士乐", "qq:user:B"),
      turn("这个别外传"),
    ]);
    const rock = items.find((m) => m.text.includes("摇滚"));
    const jazz = items.find((m) => m.text.includes("爵士"));
    expect(rock).toMatchObject({ sensitivity: "secret_like", sensitivitySource: "explicit" });
    expect(jazz).toMatchObject({ sensitivity: "public" });
  });

  it("leaves a statement followed by an ordinary reply or a near miss as it was", async ({ expect }) => {
    const items = await dreamed([turn("我喜欢摇滚乐"), turn("私聊我")]);
    expect(items.find((m) => m.text.includes("摇滚"))).toMatchObject({ sensitivity: "public" });
  });
});

describe("a privacy request ahead of the statement it is about, in a group", () => {
  it.for([
    "跟你们说个事，别外传啊",
    "just between us, ok?",
    "先講好，下面這事別說初去了哈",
    "有个事我只在这个群说，你们千万别传出去",
  ])("%s raises the speaker's next statement above public", async (request, { expect }) => {
    const items = await dreamed([turn(request), turn("我喜欢摇滚乐")]);
    const rock = items.find((m) => m.text.includes("摇滚"));
    expect(rock?.sensitivity).not.toBe("public");
  });

  it("a request with words of its own covers the speaker's next statement too", async ({ expect }) => {
    const items = await dreamed([turn("这事别外传啊，我喜欢摇滚乐"), turn("我喜欢爵士乐")]);
    expect(items.find((m) => m.text.includes("爵士"))?.sensitivity).not.toBe("public");
  });

  it("raises the next statement only: what its own words hold is never lowered", async ({ expect }) => {
    const alone = await dreamed([turn("我喜欢去医院看病历")]);
    const held = alone.find((m) => m.text.includes("病历"))?.sensitivity;
    expect(held).toBe("secret_like");
    const items = await dreamed([turn("just between us, ok?"), turn("我喜欢去医院看病历")]);
    expect(items.find((m) => m.text.includes("病历"))?.sensitivity).toBe(held);
  });

  it("covers neither someone else's next statement nor the speaker's ten minutes later", async ({
    expect,
  }) => {
    const later = dreamTurn("我喜欢爵士乐", { seq: 900, messageId: "m900", ts: NOW + 11 * 60_000 });
    const items = await dreamed([
      turn("跟你们说个事，别外传啊"),
      turn("我喜欢摇滚乐", "qq:user:B"),
      { ...later, account: "qq:user:A" },
    ]);
    expect(items.find((m) => m.text.includes("摇滚"))).toMatchObject({ sensitivity: "public" });
    expect(items.find((m) => m.text.includes("爵士"))).toMatchObject({ sensitivity: "public" });
  });
});

// A group's run reads turns once they are ten minutes old, so a request of the minutes after a
// statement can wait, still unread, in the journal when the statement's run is taken.
describe("a request that nothing be kept, after the run that holds its statement", () => {
  it("leaves the speaker's statement just before it out of the run", async ({ expect }) => {
    const items = await dreamed([turn("我喜欢爵士乐"), turn("我喜欢摇滚乐")], [turn("机器人别记这个")]);
    expect(items.map((m) => m.text)).toEqual(["小明喜欢爵士乐"]);
  });

  it.for([
    "刚才那几条看完就算了哈",
    // read by the trained reader alone
    "这事儿就到此为止啊，出了这个门谁也不知道",
  ])(
    "%s, any request after the run, keeps the speaker's statement from being public",
    async (request, { expect }) => {
      const items = await dreamed([turn("我喜欢摇滚乐")], [turn(request)]);
      expect(items.find((m) => m.text.includes("摇滚"))?.sensitivity).not.toBe("public");
    },
  );

  it("leaves the run alone when the later request is someone else's, or ten minutes on", async ({
    expect,
  }) => {
    const other = await dreamed([turn("我喜欢摇滚乐")], [turn("机器人别记这个", "qq:user:B")]);
    expect(other.map((m) => m.text)).toEqual(["小明喜欢摇滚乐"]);
    const late = dreamTurn("机器人别记这个", { seq: 950, messageId: "m950", ts: NOW + 11 * 60_000 });
    const items = await dreamed([turn("我喜欢摇滚乐")], [{ ...late, account: "qq:user:A" }]);
    expect(items.map((m) => m.text)).toEqual(["小明喜欢摇滚乐"]);
  });
});
