import {
  DEFAULT_MEMORY_DECAY_SETTINGS as CFG,
  MemoryDecaySettingsSchema,
} from "@src/domain/config/memory-decay-settings";
import { DECAY_FLOOR, decayWeight, expiryOf, NO_DECAY } from "@src/domain/memory/decay";
import type { MemoryItem } from "@src/domain/memory/memory";
import { recallMemory } from "@src/domain/memory/recall";
import { turnScopes } from "@src/domain/memory/scope";
import { describe, it } from "vitest";
import { InMemoryMemory, memoryItem } from "../../fakes/in-memory-memory";

const NOW = 1_800_000_000_000;
const DAY = 86_400_000;
const item = (over: Partial<MemoryItem> = {}) =>
  memoryItem("chat:qq:private:U1", "我喜欢猫", { kind: "fact", createdAt: NOW, updatedAt: NOW, ...over });
const decay = (over: Partial<NonNullable<MemoryItem["decay"]>>) => ({ ...NO_DECAY, ...over });

describe("decayWeight", () => {
  it("halves every half-life of the item's kind, counted from when it was recorded", ({ expect }) => {
    const h = CFG.halfLifeDays.fact;
    expect(decayWeight(item(), NOW, CFG)).toBe(1);
    expect(decayWeight(item({ createdAt: NOW - h * DAY }), NOW, CFG)).toBeCloseTo(0.5, 10);
    expect(decayWeight(item({ createdAt: NOW - 2 * h * DAY }), NOW, CFG)).toBeCloseTo(0.25, 10);
  });

  it("never goes below the floor, and never above 1 for an item from the future", ({ expect }) => {
    expect(decayWeight(item({ createdAt: NOW - 100 * 365 * DAY }), NOW, CFG)).toBe(DECAY_FLOOR);
    expect(decayWeight(item({ createdAt: NOW + DAY }), NOW, CFG)).toBe(1);
  });

  it("counts the age from the last reinforcement when it is later", ({ expect }) => {
    const old = item({ createdAt: NOW - 400 * DAY });
    const reinforced = item({ createdAt: NOW - 400 * DAY, decay: decay({ reinforcedAt: NOW - DAY }) });
    expect(decayWeight(reinforced, NOW, CFG)).toBeGreaterThan(0.99);
    expect(decayWeight(old, NOW, CFG)).toBeLessThan(0.5);
  });

  it("does not decay an item kept forever, nor a kind whose half-life is 0", ({ expect }) => {
    const ancient = NOW - 3000 * DAY;
    expect(decayWeight(item({ createdAt: ancient, decay: decay({ keepForever: true }) }), NOW, CFG)).toBe(1);
    expect(decayWeight(item({ createdAt: ancient, kind: "rule" }), NOW, CFG)).toBe(1);
    const off = { ...CFG, halfLifeDays: { ...CFG.halfLifeDays, fact: 0 } };
    expect(decayWeight(item({ createdAt: ancient }), NOW, off)).toBe(1);
  });

  it("uses each kind's own half-life", ({ expect }) => {
    const at = NOW - 30 * DAY;
    const task = decayWeight(item({ kind: "task", createdAt: at }), NOW, CFG);
    const fact = decayWeight(item({ kind: "fact", createdAt: at }), NOW, CFG);
    expect(task).toBeCloseTo(0.5, 10);
    expect(fact).toBeGreaterThan(task);
  });
});

describe("expiryOf", () => {
  const task = (over: Partial<MemoryItem> = {}) => item({ kind: "task", ...over });

  it("expires a task whose due time passed, not one still due", ({ expect }) => {
    expect(expiryOf(task({ decay: decay({ dueAt: NOW - 1 }) }), NOW, CFG)).toBe("due");
    expect(expiryOf(task({ decay: decay({ dueAt: NOW + DAY }) }), NOW, CFG)).toBeNull();
  });

  it("expires an undated task nobody reinforced for its lifetime; reinforcement renews it", ({ expect }) => {
    const old = NOW - CFG.taskLifetimeDays * DAY;
    expect(expiryOf(task({ createdAt: old }), NOW, CFG)).toBe("lifetime");
    expect(expiryOf(task({ createdAt: old + 1 }), NOW, CFG)).toBeNull();
    expect(
      expiryOf(task({ createdAt: old, decay: decay({ reinforcedAt: NOW - DAY }) }), NOW, CFG),
    ).toBeNull();
    expect(expiryOf(task({ createdAt: old - 1000 * DAY }), NOW, { ...CFG, taskLifetimeDays: 0 })).toBeNull();
  });

  it("never expires an item kept forever, another kind, or an item that is not active", ({ expect }) => {
    const gone = { createdAt: NOW - 1000 * DAY, decay: decay({ dueAt: NOW - DAY }) };
    expect(expiryOf(task({ ...gone, decay: { ...gone.decay, keepForever: true } }), NOW, CFG)).toBeNull();
    expect(expiryOf(item({ ...gone, kind: "fact" }), NOW, CFG)).toBeNull();
    expect(expiryOf(task({ ...gone, status: "archived" }), NOW, CFG)).toBeNull();
  });
});

describe("memory.decay settings", () => {
  it("accept the defaults and refuse a negative half-life, an unknown kind and a fractional lifetime", ({
    expect,
  }) => {
    expect(MemoryDecaySettingsSchema.safeParse(CFG).success).toBe(true);
    const bad = (over: object) => MemoryDecaySettingsSchema.safeParse({ ...CFG, ...over }).success;
    expect(bad({ halfLifeDays: { ...CFG.halfLifeDays, fact: -1 } })).toBe(false);
    expect(bad({ halfLifeDays: { ...CFG.halfLifeDays, mood: 3 } })).toBe(false);
    expect(bad({ taskLifetimeDays: 1.5 })).toBe(false);
  });
});

describe("recall with decay", () => {
  const scopes = turnScopes({ session: "qq:private:U1", identity: null });
  const ask = (store: InMemoryMemory, decaySettings?: typeof CFG) =>
    recallMemory(
      { index: store },
      {
        text: "猫",
        scopes,
        soft: false,
        limit: 2,
        now: NOW,
        halfLifeDays: 30,
        ...(decaySettings ? { decay: decaySettings } : {}),
      },
    );

  it("ranks a fresh item above an equally relevant one untouched for years; keep forever holds it up", async ({
    expect,
  }) => {
    const old = item({ text: "我养了一只猫", createdAt: NOW - 1500 * DAY, updatedAt: NOW - 10 * DAY });
    const fresh = item({ text: "我喜欢猫", createdAt: NOW - 20 * DAY, updatedAt: NOW - 20 * DAY });
    const withDecay = await ask(new InMemoryMemory([old, fresh]), CFG);
    expect(withDecay.map((r) => r.item.text)).toEqual(["我喜欢猫", "我养了一只猫"]);
    const without = await ask(new InMemoryMemory([old, fresh]));
    expect(without.map((r) => r.item.text)).toEqual(["我养了一只猫", "我喜欢猫"]);
    const kept = { ...old, decay: decay({ keepForever: true }) };
    const keptFirst = await ask(new InMemoryMemory([kept, fresh]), CFG);
    expect(keptFirst[0]?.item.text).toBe("我养了一只猫");
  });

  it("reinforcement renews an item's weight, once per cause key", async ({ expect }) => {
    const old = item({ text: "我养了一只猫", createdAt: NOW - 1500 * DAY, updatedAt: NOW - 10 * DAY });
    const store = new InMemoryMemory([old]);
    expect(await store.reinforce([old.nodeId], { kind: "used", key: "e1" }, NOW)).toBe(1);
    expect(await store.reinforce([old.nodeId], { kind: "used", key: "e1" }, NOW)).toBe(0);
    const [after] = await store.load([old.nodeId]);
    expect(after?.decay?.reinforceCount).toBe(1);
    expect(decayWeight(after as MemoryItem, NOW, CFG)).toBe(1);
  });
});
