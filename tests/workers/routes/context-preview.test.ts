import { env } from "cloudflare:workers";
import { settingsCache } from "@src/composition/settings/settings-cache";
import { describe, it } from "vitest";
import { newMemory, seedMemory, uid } from "../../support/memory";
import { everything, preview, previewResponse } from "../../support/preview";

describe("POST /api/context/preview", () => {
  it.for([
    ["no token", null, 401],
    ["a wrong token", "nope", 401],
  ] as const)("answers %s with %s", async ([, token, status], { expect }) => {
    expect((await previewResponse({ chat: "qq:group:G1", text: "hi" }, token)).status).toBe(status);
  });

  it.for([
    [{ chat: "nonsense", text: "hi" }, "chat"],
    [{ chat: "qq:group:G1", text: "" }, "text"],
    [{ chat: "qq:group:G1", text: "hi", sender: "a:b" }, "sender"],
    [{ chat: "qq:group:G1", text: "hi", scope: "global:__global__" }, "(body)"],
  ] as const)("refuses %j naming %s", async ([body, field], { expect }) => {
    const res = await previewResponse(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid", field });
  });

  it("shows the mandatory block and every recalled item with scope, kind, sensitivity, score and citation", async ({
    expect,
  }) => {
    const group = `qq:group:P${uid()}`;
    const [rule, pref] = await seedMemory([
      newMemory(`chat:${group}`, "群规：周末不讨论工作", { kind: "rule", importance: 0.4 }),
      newMemory(`chat:${group}`, "阿明喜欢周末去钓鱼", { importance: 0.5 }),
    ]);
    const p = await preview({ chat: group, sender: "M1", name: "阿明", text: "周末去钓鱼吗" });
    expect(p.handledBy).toEqual({ kind: "model", name: null });
    expect(p.scopes).toEqual({
      readable: [`chat:${group}`, "global:__global__"],
      // Not an admin's turn: global is read, never written.
      writable: [`chat:${group}`],
      personal: `chat:${group}`,
      softScope: false,
    });
    expect(p.mandatory.pinned.map((i) => i.nodeId)).toEqual([rule]);
    const recalled = p.recalled.find((r) => r.nodeId === pref);
    expect(recalled).toMatchObject({
      section: "相关的记忆",
      scope: `chat:${group}`,
      kind: "preference",
      sensitivity: "public",
      citation: expect.stringContaining(`#${pref}`),
    });
    expect(recalled?.score).toBeGreaterThan(0);
    expect(p.messages[0]?.content).toContain("群规：周末不讨论工作");
    expect(p.messages.at(-1)).toEqual({ role: "user", content: "阿明: 周末去钓鱼吗" });
    expect(p.tokens).toBeLessThanOrEqual(p.budget.total);
  });

  it("says when a command or intent would answer instead of the model, and changes nothing", async ({
    expect,
  }) => {
    const chat = `qq:private:U${uid()}`;
    expect((await preview({ chat, text: "/reset" })).handledBy).toEqual({ kind: "command", name: "reset" });
    expect((await preview({ chat, text: "记住我喜欢猫" })).handledBy).toEqual({
      kind: "intent",
      name: "remember",
    });
    const nodes = await env.DB.prepare("SELECT count(*) AS n FROM nodes WHERE scope_id = ?")
      .bind(chat)
      .first();
    expect(nodes).toEqual({ n: 0 });
  });

  it("follows the soft-scope setting: public portable items of other chats appear, private ones never", async ({
    expect,
  }) => {
    const word = `曲${uid()}`;
    await seedMemory([
      newMemory(`chat:qq:group:S${uid()}`, `${word} 是一首好歌`),
      newMemory(`chat:qq:private:S${uid()}`, `${word} 让人想起前任`, {
        sensitivity: "private",
        sensitivitySource: "dream",
      }),
      newMemory(`chat:qq:group:S${uid()}`, `${word} 是群里的外号`, { portable: false }),
    ]);
    const chat = `qq:group:Q${uid()}`;
    expect(everything(await preview({ chat, text: word }))).not.toContain("好歌");
    await env.DB.prepare("INSERT OR REPLACE INTO settings (key, value, updated_at) VALUES ('config', ?, ?)")
      .bind(JSON.stringify({ memory: { retrieval: { softScope: true } } }), Date.now())
      .run();
    // Written past the settings store: drop the isolate's cached copy as a save would.
    settingsCache.invalidate();
    try {
      const soft = await preview({ chat, text: word });
      expect(soft.scopes.softScope).toBe(true);
      expect(soft.recalled.map((r) => r.text)).toEqual([`${word} 是一首好歌`]);
    } finally {
      await env.DB.prepare("DELETE FROM settings WHERE key = 'config'").run();
      settingsCache.invalidate();
    }
  });
});
