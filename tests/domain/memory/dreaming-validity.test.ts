/**
 * Dreaming closes an earlier value of a person's slot (docs/memory.md#validity-in-time): offline
 * by the slot rules, with a model by the slot of the model's own wording; the old item is
 * closed, not deleted, valid until the turn that changed it was said.
 */

import { OfflineChatModel } from "@src/domain/agent/offline-chat-model";
import { silentLogger } from "@src/domain/kernel/logger";
import { type DreamTurn, dream } from "@src/domain/memory/dreaming";
import type { ChatModel } from "@src/domain/model/chat-model";
import { describe, it } from "vitest";
import { InMemoryMemory } from "../../fakes/in-memory-memory";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { dreamTurn } from "../../support/dream-turn";

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 10, 2);
const A = "qq:private:A";

const turn = (text: string, ts: number, over: Partial<DreamTurn> = {}): DreamTurn =>
  dreamTurn(text, { messageId: `m${ts}`, ts, ...over });

const run = (
  store: InMemoryMemory,
  turns: DreamTurn[],
  id: string,
  model: ChatModel = new OfflineChatModel(),
) =>
  dream(
    {
      runId: `dream:${A}:${id}`,
      session: A,
      turns,
      now: (turns.at(-1)?.ts ?? T0) + DAY,
      useModel: !(model instanceof OfflineChatModel),
    },
    { model, store, logger: silentLogger, now: () => T0 + 100 * DAY },
  );

describe("dreaming closes what changed", () => {
  it("offline: a newer value of the same slot closes the older at the time it was said", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    await run(store, [turn("我住在北京", T0)], "1");
    const out = await run(store, [turn("跟你说个事，我搬到上海了！", T0 + 40 * DAY)], "2");
    expect(out).toMatchObject({ ok: true, value: { inserted: 1, superseded: 1 } });
    expect(store.items.map((m) => [m.text, m.status, m.validFrom, m.validTo ?? null])).toEqual([
      ["小明住在北京", "superseded", T0, T0 + 40 * DAY],
      ["小明住在上海", "active", T0 + 40 * DAY, null],
    ]);
    expect(store.items[0]?.closedBy).toBe(store.items[1]?.nodeId);
    expect(store.candidates.at(-1)).toMatchObject({
      decision: "supersede",
      targetNodeId: store.items[0]?.nodeId,
    });
  });

  it("with a model: the slot of the model's wording about the speaker closes the older value", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    await run(store, [turn("我在腾讯上班", T0)], "1");
    const model = new ScriptedChatModel([
      {
        text: JSON.stringify({
          memories: [{ kind: "fact", text: "小明在字节跳动工作", importance: 0.6, turn: 0 }],
        }),
      },
    ]);
    await run(store, [turn("换了家公司，现在去字节了", T0 + 5 * DAY)], "2", model);
    expect(store.items.map((m) => [m.text, m.status])).toEqual([
      ["小明在腾讯工作", "superseded"],
      ["小明在字节跳动工作", "active"],
    ]);
  });

  it("two people's slots never close each other", async ({ expect }) => {
    const store = new InMemoryMemory();
    await run(
      store,
      [turn("我住在北京", T0), turn("我住在上海", T0 + DAY, { name: "小红", account: "qq:user:B" })],
      "1",
    );
    expect(store.items.map((m) => m.status)).toEqual(["active", "active"]);
  });
});
