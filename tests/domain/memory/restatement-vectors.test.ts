// Restatements in other words merge when a measured model's vectors take part
// (docs/memory.md#write-time-merge): on both write paths, with one embedding call per dreaming
// run, never across scopes or into an item the writer may not read, never for a text that may
// not be stored, and a failing model leaves the write as it was without vectors.

import { OfflineChatModel } from "@src/domain/agent/offline-chat-model";
import type { AccountKey } from "@src/domain/chat/chat-address";
import { silentLogger } from "@src/domain/kernel/logger";
import { type DreamTurn, dream } from "@src/domain/memory/dreaming";
import { type RememberRequest, remember } from "@src/domain/memory/remember";
import type { RestatementVectors } from "@src/domain/memory/restatement-vectors";
import { describe, it } from "vitest";
import { InMemoryMemory } from "../../fakes/in-memory-memory";
import { dreamTurn } from "../../support/dream-turn";

const NOW = 1_700_000_000_000;

/**
 * A model of meaning for the test: what a text is about decides its direction (爬山, 咖啡, 猫 and
 * 密码 are four meanings; any other text one of four more, by its characters); its characters
 * move it a little, so two wordings of one meaning have a cosine near 0.99 and two meanings 0.
 */
const MEANINGS = ["爬山", "咖啡", "猫", "密码"];
function meaning(text: string): number[] {
  const codes = [...text].reduce((sum, ch) => sum + (ch.codePointAt(0) ?? 0), 0);
  const v: number[] = MEANINGS.map((m) => (text.includes(m) ? 1 : 0));
  const other = [0, 0, 0, 0];
  if (!v.includes(1)) other[codes % 4] = 1;
  v.push(...other, (codes % 29) / 60, text.length / 100);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** The model as a port, with what it was asked recorded; `fail` makes every call fail. */
function fakeVectors(store: InMemoryMemory, opts: { threshold?: number; fail?: "null" | "throw" } = {}) {
  const embedded: string[][] = [];
  const storedAsked: string[] = [];
  const notEmbedded = new Set<string>();
  const port: RestatementVectors = {
    threshold: opts.threshold ?? 0.95,
    maxBatch: 100,
    async embed(texts) {
      embedded.push([...texts]);
      if (opts.fail === "throw") throw new Error("model down");
      return opts.fail === "null" ? null : texts.map(meaning);
    },
    async stored(ids) {
      storedAsked.push(...ids);
      const out = new Map<string, number[]>();
      for (const m of store.items)
        if (ids.includes(m.nodeId) && !notEmbedded.has(m.nodeId)) out.set(m.nodeId, meaning(m.text));
      return out;
    },
  };
  return { port, embedded, storedAsked, notEmbedded };
}

const identity = {
  enabled: true,
  account: "qq:user:A" as AccountKey,
  personId: "pA",
  declared: true,
};
const PRIVATE = { session: "qq:private:A", identity };
const GROUP = { session: "qq:group:G", identity };

const request = (text: string, n: number, scopes = PRIVATE): RememberRequest => ({
  text,
  origin: "explicit",
  scopes,
  speaker: { name: "小明", id: "qq:user:A" },
  account: "qq:user:A",
  messageId: `m${n}`,
  runId: `turn:e${n}`,
  chatKey: scopes.session,
  now: NOW + n,
});

const turn = (text: string, seq: number): DreamTurn =>
  dreamTurn(text, { seq, messageId: `d${seq}`, ts: NOW + seq });

const dreamRun = (store: InMemoryMemory, texts: string[], run: string, restatements: RestatementVectors) =>
  dream(
    { runId: run, session: "qq:group:G", turns: texts.map(turn), now: NOW + 100, useModel: false },
    { model: new OfflineChatModel(), store, logger: silentLogger, now: () => NOW + 100, restatements },
  );

/**
 * Writes `first` (as message `n`), then `second` (as message `n + 1`) in other words, and answers
 * what the second write decided (false when it was refused).
 */
async function restate(
  store: InMemoryMemory,
  first: string,
  second: string,
  restatements?: RestatementVectors,
  n = 1,
) {
  await remember(store, request(first, n), { restatements });
  const again = await remember(store, request(second, n + 1), { restatements });
  return again.ok && again.value[0]?.decision;
}

const active = (store: InMemoryMemory) => store.items.filter((m) => m.status === "active").map((m) => m.text);

describe("restatements in other words", () => {
  it("/remember merges a paraphrase with vectors and keeps both without them", async ({ expect }) => {
    const store = new InMemoryMemory();
    const { port } = fakeVectors(store);
    expect(await restate(store, "我喜欢爬山", "我爱去爬山", port)).toBe("merge");
    expect(active(store)).toHaveLength(1);

    const plain = new InMemoryMemory();
    expect(await restate(plain, "我喜欢爬山", "我爱去爬山")).toBe("insert");
    expect(active(plain)).toHaveLength(2);
  });

  it("merges nothing below the model's threshold, nor across a negation however close", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    const strict = fakeVectors(store, { threshold: 0.995 });
    await restate(store, "我喜欢爬山", "我爱去爬山", strict.port);
    expect(active(store)).toHaveLength(2);

    const other = new InMemoryMemory();
    const { port } = fakeVectors(other);
    expect(await restate(other, "我喜欢爬山", "我不喜欢爬山", port)).not.toBe("merge");
  });

  it("asks the model nothing when words already find the restatement", async ({ expect }) => {
    const store = new InMemoryMemory();
    const v = fakeVectors(store);
    expect(
      await restate(store, "我喜欢徒步、长跑、打篮球和攀岩", "我喜欢徒步，长跑，打篮球，攀岩", v.port),
    ).toBe("merge");
    expect(v.embedded).toEqual([]);
    expect(v.storedAsked).toEqual([]);
  });

  it("an item without a stored vector yet is judged by words alone", async ({ expect }) => {
    const store = new InMemoryMemory();
    const v = fakeVectors(store);
    const first = await remember(store, request("我喜欢爬山", 1), { restatements: v.port });
    if (first.ok) v.notEmbedded.add(first.value[0]?.item.nodeId ?? "");
    await remember(store, request("我爱去爬山", 2), { restatements: v.port });
    expect(active(store)).toHaveLength(2);
  });

  it("a model that fails or throws leaves the write whole, judged by words", async ({ expect }) => {
    for (const fail of ["null", "throw"] as const) {
      const store = new InMemoryMemory();
      const { port } = fakeVectors(store, { fail });
      expect(await restate(store, "我喜欢爬山", "我爱去爬山", port)).toBe("insert");
      expect(
        await restate(store, "我喜欢徒步、长跑、打篮球和攀岩", "我喜欢徒步，长跑，打篮球，攀岩", port, 3),
      ).toBe("merge");
      expect(active(store)).toHaveLength(3);
    }
  });

  it("a group write never reads the vector of, nor merges into, the person's private item", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    const v = fakeVectors(store);
    const secret = await remember(store, request("我喜欢爬山", 1), { restatements: v.port });
    const privateId = secret.ok ? secret.value[0]?.item.nodeId : undefined;
    expect(secret.ok && secret.value[0]?.item.sensitivity).toBe("private");
    v.storedAsked.length = 0;
    const inGroup = await remember(store, request("我爱去爬山", 2, GROUP), { restatements: v.port });
    expect(inGroup.ok && inGroup.value[0]?.decision).toBe("insert");
    expect(v.storedAsked).not.toContain(privateId);
    expect(store.items.find((m) => m.nodeId === privateId)?.evidence?.messageIds).toEqual(["m1"]);
  });

  it("dreaming embeds a run's statements in one call, merges paraphrases, and never embeds a credential", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    const v = fakeVectors(store);
    await dreamRun(store, ["我喜欢爬山"], "r1", v.port);
    v.embedded.length = 0;
    const report = await dreamRun(
      store,
      ["我爱去爬山", "我喜欢喝咖啡", "我最爱喝现磨咖啡", "我的密码是 hunter2-Secret!"],
      "r2",
      v.port,
    );
    expect(v.embedded).toHaveLength(1);
    expect(v.embedded.flat().some((t) => t.includes("hunter2") || t.includes("密码"))).toBe(false);
    expect(report.ok && report.value.inserted).toBe(1);
    expect(store.items.every((m) => m.status === "active")).toBe(true);
    expect(active(store).filter((t) => t.includes("爬山"))).toHaveLength(1);
    expect(active(store).filter((t) => t.includes("咖啡"))).toHaveLength(1);
  });
});
