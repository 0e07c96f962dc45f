/**
 * Decay and reinforcement over real D1 (docs/memory.md#decay-and-reinforcement): a turn the model
 * answered reinforces the recalled items that were in its prompt and those memory_search showed
 * it — once per event, however often
 * the turn is retried — and nothing else; a failed turn reinforces nothing. The cron's expiry
 * archives tasks past their due time or lifetime, audited, and leaves kept-forever ones alone.
 */
import { env } from "cloudflare:workers";
import { D1ProfileStore } from "@src/adapters/d1/d1-profile-store";
import { taskExpiryJob } from "@src/composition/cron/task-expiry-job";
import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { AccountKey } from "@src/domain/chat/chat-address";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { silentLogger } from "@src/domain/kernel/logger";
import { noChatLinks } from "@src/domain/memory/memory-store";
import { remember } from "@src/domain/memory/remember";
import { describe, it } from "vitest";
import { messageEvent } from "../../fakes/inbound";
import { ScriptedChatModel, type ScriptStep } from "../../fakes/scripted-chat-model";
import { turnPorts } from "../../fakes/turn-ports";
import { memoryStore, newMemory, seedMemory, uid } from "../../support/memory";
import { turnContext } from "../../support/turn-context";

const DAY = 86_400_000;

const decayRow = (id: string) =>
  env.DB.prepare(
    "SELECT reinforced_at, reinforce_count, reinforced_by, keep_forever, status, expired_at, updated_at FROM nodes WHERE node_id = ?",
  )
    .bind(id)
    .first<{
      reinforced_at: number | null;
      reinforce_count: number;
      reinforced_by: string | null;
      keep_forever: number;
      status: string;
      expired_at: number | null;
      updated_at: number;
    }>();

async function turn(chat: string, text: string, eventId: string, now: number, steps: ScriptStep[]) {
  const store = memoryStore();
  const event = messageEvent({ chat, text, sender: chat.split(":")[2], eventId });
  return runTurn(
    turnContext(event, { text, settings: DEFAULT_SETTINGS, now }),
    turnPorts({
      model: new ScriptedChatModel(steps),
      memory: { store, index: store, links: noChatLinks, profiles: new D1ProfileStore(env.DB) },
    }),
    defaultTurnRegistry(silentLogger),
  );
}

describe("reinforcement by use", () => {
  it("an answered turn reinforces the recalled items in its prompt, once per event", async ({ expect }) => {
    const tag = uid();
    const chat = `qq:private:U${tag}`;
    const seeded = Date.now() - 200 * DAY;
    const [used, other] = await seedMemory(
      [
        newMemory(`chat:${chat}`, `我养了一只橘猫叫${tag}`, { kind: "fact" }),
        newMemory(`chat:${chat}`, `我周末去爬山${tag}`, { kind: "fact" }),
      ],
      seeded,
    );
    const now = Date.now();
    const result = await turn(chat, "橘猫", `e${tag}`, now, [{ text: "记得，是橘猫。" }]);
    expect(result.ok && result.value.recalled.map((r) => r.meta?.nodeId)).toContain(used);
    const after = await decayRow(used as string);
    expect(after).toMatchObject({ reinforced_at: now, reinforce_count: 1, reinforced_by: `used:e${tag}` });
    // Reinforcement is not an edit: the item's recorded update time stays.
    expect(after?.updated_at).toBe(seeded);
    // An item the recall did not bring is untouched.
    expect(await decayRow(other as string)).toMatchObject({ reinforced_at: null, reinforce_count: 0 });

    // The same event again (a retried alarm) counts once; the next event counts again.
    await turn(chat, "橘猫", `e${tag}`, now + 1000, [{ text: "记得。" }]);
    expect((await decayRow(used as string))?.reinforce_count).toBe(1);
    await turn(chat, "橘猫", `f${tag}`, now + 2000, [{ text: "记得。" }]);
    expect(await decayRow(used as string)).toMatchObject({ reinforce_count: 2, reinforced_at: now + 2000 });
  });

  it("items memory_search showed the model count as used when it answers, not when it fails", async ({
    expect,
  }) => {
    const tag = uid();
    const chat = `qq:private:U${tag}`;
    const [found, other] = await seedMemory([
      newMemory(`chat:${chat}`, "我周末去爬山", { kind: "fact" }),
      newMemory(`chat:${chat}`, "我养了一只橘猫", { kind: "fact" }),
    ]);
    const search = { id: "s1", name: "memory_search", arguments: JSON.stringify({ query: "爬山" }) };
    const now = Date.now();
    // Nothing in "你好" recalls either item: only the search shows one.
    const failed = await turn(chat, "你好", `e${tag}`, now, [
      { toolCalls: [search] },
      { error: { kind: "unavailable", message: "down" } },
    ]);
    expect(failed.ok).toBe(false);
    expect(await decayRow(found as string)).toMatchObject({ reinforce_count: 0 });
    const answered = await turn(chat, "你好", `f${tag}`, now, [
      { toolCalls: [search] },
      { text: "你周末爬山。" },
    ]);
    expect(answered.ok && answered.value.recalled).toEqual([]);
    expect(await decayRow(found as string)).toMatchObject({
      reinforce_count: 1,
      reinforced_by: `used:f${tag}`,
    });
    expect(await decayRow(other as string)).toMatchObject({ reinforce_count: 0 });
  });

  it("a turn whose model failed, or answered nothing, reinforces nothing", async ({ expect }) => {
    const tag = uid();
    const chat = `qq:private:U${tag}`;
    const [id] = await seedMemory([newMemory(`chat:${chat}`, `我养了一只橘猫叫${tag}`, { kind: "fact" })]);
    const failed = await turn(chat, `橘猫 ${tag}`, `e${tag}`, Date.now(), [
      { error: { kind: "unavailable", message: "down" } },
    ]);
    expect(failed.ok).toBe(false);
    await turn(chat, `橘猫 ${tag}`, `f${tag}`, Date.now(), [{ text: "   " }]);
    expect(await decayRow(id as string)).toMatchObject({ reinforced_at: null, reinforce_count: 0 });
  });

  it("only active items are reinforced", async ({ expect }) => {
    const chat = `qq:private:U${uid()}`;
    const [id] = await seedMemory([newMemory(`chat:${chat}`, "旧的事", { kind: "fact" })]);
    await env.DB.prepare("UPDATE nodes SET status = 'archived' WHERE node_id = ?").bind(id).run();
    expect(await memoryStore().reinforce([id as string], { kind: "restated", key: "r1" }, Date.now())).toBe(
      0,
    );
  });
});

describe("reinforcement by restatement", () => {
  it("a commit that restates an item reinforces it once per run, only in its writable scopes", async ({
    expect,
  }) => {
    const chat = `qq:private:U${uid()}`;
    const elsewhere = `qq:group:G${uid()}`;
    const [mine, theirs] = await seedMemory([
      newMemory(`chat:${chat}`, "我喜欢摇滚", { kind: "preference" }),
      newMemory(`chat:${elsewhere}`, "群里喜欢摇滚", { kind: "preference" }),
    ]);
    const at = Date.now();
    const commit = (runId: string) =>
      memoryStore().commit({
        runId,
        chatKey: chat,
        at,
        writable: [{ type: "chat", id: chat }],
        inserts: [],
        supersede: [],
        archive: [],
        updates: [],
        candidates: [],
        restated: [mine as string, theirs as string],
      });
    await commit("run-a");
    await commit("run-a");
    expect(await decayRow(mine as string)).toMatchObject({
      reinforced_at: at,
      reinforce_count: 1,
      reinforced_by: "restated:run-a",
    });
    expect(await decayRow(theirs as string)).toMatchObject({ reinforced_at: null, reinforce_count: 0 });
    await commit("run-b");
    expect((await decayRow(mine as string))?.reinforce_count).toBe(2);
  });
});

describe("restated through /remember", () => {
  it("saying an item again reinforces it, once per turn", async ({ expect }) => {
    const tag = uid();
    const chat = `qq:private:U${tag}`;
    const account = `qq:user:U${tag}` as AccountKey;
    const say = (text: string, runId: string, now: number) =>
      remember(memoryStore(), {
        text,
        origin: "explicit",
        scopes: { session: chat, identity: null },
        speaker: { name: "小周", id: account },
        account,
        messageId: runId,
        runId,
        chatKey: chat,
        now,
      });
    const t0 = Date.now() - 100 * DAY;
    const first = await say(`我喜欢爬山${tag}`, `turn:a${tag}`, t0);
    if (!first.ok) throw new Error("first write refused");
    const id = first.value[0]?.item.nodeId as string;
    expect(await decayRow(id)).toMatchObject({ reinforce_count: 0 });
    const now = Date.now();
    await say(`我喜欢爬山${tag}`, `turn:b${tag}`, now);
    await say(`我喜欢爬山${tag}`, `turn:b${tag}`, now);
    expect(await decayRow(id)).toMatchObject({ reinforce_count: 1, reinforced_at: now });
  });
});

describe("task expiry", () => {
  it("archives tasks past their due time or lifetime with an audit row; keeps the rest", async ({
    expect,
  }) => {
    const chat = `qq:private:U${uid()}`;
    const now = Date.now();
    const lifetime = DEFAULT_SETTINGS.memory.decay.taskLifetimeDays;
    const [due, stale, fresh, kept, fact] = await seedMemory(
      [
        newMemory(`chat:${chat}`, "周五交报告", { kind: "task" }),
        newMemory(`chat:${chat}`, "找时间修自行车", { kind: "task" }),
        newMemory(`chat:${chat}`, "下周买牛奶", { kind: "task" }),
        newMemory(`chat:${chat}`, "每年体检", { kind: "task" }),
        newMemory(`chat:${chat}`, "我住在杭州", { kind: "fact" }),
      ],
      now - (lifetime + 1) * DAY,
    );
    const set = (id: string | undefined, sql: string, ...binds: number[]) =>
      env.DB.prepare(`UPDATE nodes SET ${sql} WHERE node_id = ?`)
        .bind(...binds, id as string)
        .run();
    await set(due, "due_at = ?, created_at = ?", now - DAY, now - DAY);
    await set(fresh, "reinforced_at = ?", now - DAY);
    await set(kept, "keep_forever = 1, due_at = ?", now - DAY);

    const report = await taskExpiryJob(env, DEFAULT_SETTINGS, now);
    expect(report).toMatchObject({ due: expect.any(Number), lifetime: expect.any(Number) });
    for (const id of [due, stale])
      expect(await decayRow(id as string)).toMatchObject({ status: "archived", expired_at: now });
    for (const id of [fresh, kept, fact])
      expect(await decayRow(id as string)).toMatchObject({ status: "active", expired_at: null });
    const { results } = await env.DB.prepare(
      "SELECT target, actor, detail FROM audit_log WHERE action = 'memory.expire' AND target IN (?, ?)",
    )
      .bind(`memory:${due}`, `memory:${stale}`)
      .all<{ target: string; actor: string; detail: string }>();
    const causes = Object.fromEntries(results.map((r) => [r.target, JSON.parse(r.detail).cause]));
    expect(causes).toEqual({ [`memory:${due}`]: "due", [`memory:${stale}`]: "lifetime" });
    // A second run finds nothing more of these and writes no second record.
    await taskExpiryJob(env, DEFAULT_SETTINGS, now + 1);
    const again = await env.DB.prepare(
      "SELECT count(*) AS n FROM audit_log WHERE action = 'memory.expire' AND target IN (?, ?)",
    )
      .bind(`memory:${due}`, `memory:${stale}`)
      .first<{ n: number }>();
    expect(again?.n).toBe(2);
  });
});
