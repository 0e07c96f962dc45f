// Scope isolation cases (docs/invariants.md#scope-isolation), end to end: memory written through real turns (webhook →
// chat object → D1), read back through the context preview — exactly what a turn would get.
import { describe, it } from "vitest";
import { newMemory, seedMemory, uid } from "../support/memory";
import { everything, preview } from "../support/preview";
import { sayInPrivate as say } from "../support/qq-events";

describe("memory scope isolation", () => {
  const A = `UA${uid()}`;
  const B = `UB${uid()}`;
  const setup = (async () => {
    await say(A, "记住我喜欢吃辣的火锅");
    await say(B, "记住我喜欢吃甜的蛋糕");
    await say(A, "记住我们决定周五发布新版");
  })();

  it("user A's preference never appears in user B's context, nor B's in A's", async ({ expect }) => {
    await setup;
    const forA = await preview({ chat: `qq:private:${A}`, text: "我喜欢吃什么" });
    const forB = await preview({ chat: `qq:private:${B}`, text: "我喜欢吃什么" });
    expect(forA.recalled.map((r) => r.text)).toContain(`用户${A.slice(0, 4)}喜欢吃辣的火锅`);
    expect(forB.recalled.map((r) => r.text)).toContain(`用户${B.slice(0, 4)}喜欢吃甜的蛋糕`);
    expect(everything(forB)).not.toContain("火锅");
    expect(everything(forA)).not.toContain("蛋糕");
    expect(forA.recalled.find((r) => r.text.includes("火锅"))).toMatchObject({
      scope: `chat:qq:private:${A}`,
      kind: "preference",
      // Learned in A's private chat: private by origin (docs/memory.md#private-by-origin).
      sensitivity: "private",
    });
  });

  it("a decision written from A's chat stays in A's chat: only an admin writes global", async ({
    expect,
  }) => {
    await setup;
    const forB = await preview({ chat: `qq:private:${B}`, text: "周五发布什么" });
    expect(everything(forB)).not.toContain("周五发布新版");
    const forA = await preview({ chat: `qq:private:${A}`, text: "周五发布什么" });
    expect(forA.recalled.find((r) => r.text.includes("周五发布新版"))).toMatchObject({
      scope: `chat:qq:private:${A}`,
      kind: "decision",
    });
  });

  it("a cron lane of A's chat sees A's memory", async ({ expect }) => {
    await setup;
    const lane = await preview({ chat: `qq:private:${A}:cron:daily`, sender: A, text: "我喜欢吃什么" });
    expect(lane.session).toBe(`qq:private:${A}:cron:daily`);
    expect(lane.scopes.readable).toEqual([`chat:qq:private:${A}`, "global:__global__"]);
    expect(lane.recalled.map((r) => r.text)).toContain(`用户${A.slice(0, 4)}喜欢吃辣的火锅`);
  });

  it("a legacy session sees global memory only", async ({ expect }) => {
    await setup;
    await seedMemory([newMemory("global:__global__", "决定：周五发布新版的说明会", { kind: "decision" })]);
    const legacy = await preview({ chat: `qq:${A}`, text: "我喜欢吃什么 周五发布" });
    expect(legacy.scopes.readable).toEqual(["global:__global__"]);
    expect(legacy.recalled.map((r) => r.scope)).toEqual(["global:__global__"]);
    expect(everything(legacy)).not.toContain("火锅");
  });

  it("a group never sees a member's private-chat memory", async ({ expect }) => {
    await setup;
    const group = await preview({ chat: `qq:group:G${uid()}`, sender: A, text: "我喜欢吃什么" });
    expect(everything(group)).not.toContain("火锅");
  });
});
