import { DEFAULT_FAN_OUT_LIMITS, fanOut, UnreadError } from "@src/domain/history/fan-out";
import { describe, expect, it } from "vitest";
import { deferred, ManualTimer, settle } from "../../fakes/manual-timer";

const limits = (timer: ManualTimer, over: Partial<typeof DEFAULT_FAN_OUT_LIMITS> = {}) => ({
  ...DEFAULT_FAN_OUT_LIMITS,
  ...over,
  after: timer.after,
});

describe("fanOut", () => {
  it("answers every key in the order given when all calls answer", async () => {
    const timer = new ManualTimer();
    const r = await fanOut(["a", "b", "c"], async (k) => k.toUpperCase(), limits(timer));
    expect(r).toEqual({
      answers: [
        { key: "a", value: "A" },
        { key: "b", value: "B" },
        { key: "c", value: "C" },
      ],
      unread: [],
      asked: 3,
      partial: false,
    });
    expect(timer.asked).toEqual([DEFAULT_FAN_OUT_LIMITS.budgetMs]);
  });

  it("asks no key twice and sets no timer for no keys", async () => {
    const timer = new ManualTimer();
    const seen: string[] = [];
    const r = await fanOut(["a", "a", "b"], async (k) => seen.push(k), limits(timer));
    expect(seen).toEqual(["a", "b"]);
    expect(r.asked).toBe(2);
    const none = await fanOut([], async () => 1, limits(timer));
    expect(none).toEqual({ answers: [], unread: [], asked: 0, partial: false });
    expect(timer.asked).toHaveLength(1);
  });

  it("names the keys past maxChats as over-cap and never calls them", async () => {
    const timer = new ManualTimer();
    const called: string[] = [];
    const keys = ["k1", "k2", "k3", "k4", "k5"];
    const r = await fanOut(keys, async (k) => called.push(k), limits(timer, { maxChats: 3 }));
    expect(called).toEqual(["k1", "k2", "k3"]);
    expect(r.answers.map((a) => a.key)).toEqual(["k1", "k2", "k3"]);
    expect(r.unread).toEqual([
      { key: "k4", reason: "over-cap" },
      { key: "k5", reason: "over-cap" },
    ]);
    expect(r).toMatchObject({ asked: 3, partial: true });
  });

  it("turns a thrown call into a failed key and still answers the others", async () => {
    const timer = new ManualTimer();
    const boom = new Error("object reset");
    const r = await fanOut(
      ["ok1", "bad", "ok2", "sync"],
      (k) => {
        if (k === "sync") throw new Error("thrown before any promise");
        return k === "bad" ? Promise.reject(boom) : Promise.resolve(k);
      },
      limits(timer),
    );
    expect(r.answers.map((a) => a.value)).toEqual(["ok1", "ok2"]);
    expect(r.unread.map((u) => [u.key, u.reason])).toEqual([
      ["bad", "failed"],
      ["sync", "failed"],
    ]);
    expect(r.unread[0]?.error).toBe(boom);
    expect(r.partial).toBe(true);
  });

  it("keeps the class of a call that already knows why it failed", async () => {
    const timer = new ManualTimer();
    const r = await fanOut(
      ["slow", "broken"],
      async (k) => {
        throw new UnreadError(k, k === "slow" ? "timeout" : "failed");
      },
      limits(timer),
    );
    expect(r.unread.map((u) => u.reason)).toEqual(["timeout", "failed"]);
  });

  it("stops waiting at the budget: calls still running and calls not started are timeouts", async () => {
    const timer = new ManualTimer();
    const hang = deferred<string>();
    const late = deferred<string>();
    const started: string[] = [];
    const pending = fanOut(
      ["fast", "hang", "late", "queued"],
      (k) => {
        started.push(k);
        if (k === "hang") return hang.promise;
        if (k === "late") return late.promise;
        return Promise.resolve(k);
      },
      limits(timer, { concurrency: 2, budgetMs: 500 }),
    );
    await settle();
    // "fast" answered at once, so "late" took its place; "queued" waits for a free slot.
    expect(started).toEqual(["fast", "hang", "late"]);
    timer.advance(499);
    await settle();
    let done = false;
    void pending.then(() => {
      done = true;
    });
    await settle();
    expect(done).toBe(false);
    timer.advance(1);
    const r = await pending;
    expect(r.answers).toEqual([{ key: "fast", value: "fast" }]);
    expect(r.unread).toEqual([
      { key: "hang", reason: "timeout" },
      { key: "late", reason: "timeout" },
      { key: "queued", reason: "timeout" },
    ]);
    expect(r).toMatchObject({ asked: 3, partial: true });
    // An answer after the budget changes nothing, and no call starts after it.
    late.resolve("late");
    hang.reject(new Error("too late"));
    await settle();
    expect(started).toEqual(["fast", "hang", "late"]);
    expect(r.answers).toHaveLength(1);
  });

  it("runs at most `concurrency` calls at once", async () => {
    const timer = new ManualTimer();
    const gates = new Map<string, ReturnType<typeof deferred<number>>>();
    let running = 0;
    let most = 0;
    const keys = Array.from({ length: 10 }, (_, i) => `c${i}`);
    const pending = fanOut(
      keys,
      async (k) => {
        running++;
        most = Math.max(most, running);
        const gate = deferred<number>();
        gates.set(k, gate);
        try {
          return await gate.promise;
        } finally {
          running--;
        }
      },
      limits(timer, { concurrency: 3 }),
    );
    for (let i = 0; i < keys.length; i++) {
      await settle();
      expect(running).toBeLessThanOrEqual(3);
      gates.get(`c${i}`)?.resolve(i);
    }
    const r = await pending;
    expect(most).toBe(3);
    expect(r.answers.map((a) => a.value)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(r.partial).toBe(false);
  });

  it("never rejects, even when the timer fails", async () => {
    const hang = new Promise<string>(() => {});
    const r = await fanOut(["a"], () => hang, {
      ...DEFAULT_FAN_OUT_LIMITS,
      after: () => Promise.reject(new Error("no timers here")),
    });
    expect(r.unread).toEqual([{ key: "a", reason: "timeout" }]);
  });
});
