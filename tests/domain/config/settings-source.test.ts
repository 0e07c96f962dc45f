import { DEFAULT_SETTINGS, type Settings } from "@src/domain/config/settings";
import { memoizedSettings } from "@src/domain/config/settings-source";
import { describe, it } from "vitest";

function counted(values: (Settings | Error)[]) {
  let reads = 0;
  const source = memoizedSettings(async () => {
    const next = values[Math.min(reads, values.length - 1)];
    reads++;
    if (next instanceof Error) throw next;
    return next as Settings;
  });
  return { source, reads: () => reads };
}

describe("memoizedSettings: one read per run", () => {
  it("reads once however often a run asks, also when it asks concurrently", async ({ expect }) => {
    const { source, reads } = counted([DEFAULT_SETTINGS]);
    const [a, b] = await Promise.all([source.current(), source.current()]);
    await source.current();
    expect(a).toBe(DEFAULT_SETTINGS);
    expect(b).toBe(DEFAULT_SETTINGS);
    expect(reads()).toBe(1);
  });

  it("reads again after invalidate and then serves the new value", async ({ expect }) => {
    const changed = { ...DEFAULT_SETTINGS, turn: { ...DEFAULT_SETTINGS.turn, recentTurns: 3 } };
    const { source, reads } = counted([DEFAULT_SETTINGS, changed]);
    expect(await source.current()).toBe(DEFAULT_SETTINGS);
    source.invalidate();
    expect(await source.current()).toBe(changed);
    expect(await source.current()).toBe(changed);
    expect(reads()).toBe(2);
  });

  it("does not remember a failed read", async ({ expect }) => {
    const { source, reads } = counted([new Error("D1 down"), DEFAULT_SETTINGS]);
    await expect(source.current()).rejects.toThrow("D1 down");
    expect(await source.current()).toBe(DEFAULT_SETTINGS);
    expect(reads()).toBe(2);
  });
});
