/**
 * Dreaming records every candidate and archive request with its decision; whatever the model
 * wrote there must pass the credential check first, whichever turn it cites and whether or
 * not the request is honoured.
 */

import { silentLogger } from "@src/domain/kernel/logger";
import { type DreamTurn, dream } from "@src/domain/memory/dreaming";
import { describe, it } from "vitest";
import { InMemoryMemory, memoryItem } from "../../fakes/in-memory-memory";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { dreamTurn } from "../../support/dream-turn";

const NOW = 1_700_000_000_000;
const A = "qq:private:A";
const ANTHROPIC = "sk-ant-api03-Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7Aa";
const GITLAB = "glpat-xY9zW8vU7tS6rQ5pO4nM";

const turn = (text: string, over: Partial<DreamTurn> = {}): DreamTurn =>
  dreamTurn(text, { ts: NOW, ...over });

const TURNS = [
  turn("我喜欢爬山"),
  turn("好的", { role: "assistant", name: null, account: null, messageId: null }),
];

/** One model-backed run over TURNS whose extraction is `json`. */
async function dreamWith(store: InMemoryMemory, json: unknown) {
  const model = new ScriptedChatModel([{ text: JSON.stringify(json) }]);
  return dream(
    { runId: `dream:${A}:1-2`, session: A, turns: TURNS, now: NOW, useModel: true },
    { model, store, logger: silentLogger, now: () => NOW },
  );
}

const recorded = (store: InMemoryMemory) => JSON.stringify(store.commits);

describe("dreaming and credentials in the model's own words", () => {
  it("withholds a candidate's credential whether it cites the bot's turn, no turn or a user turn", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    await dreamWith(store, {
      memories: [
        { kind: "fact", text: `小明的 Claude key 是 ${ANTHROPIC}`, importance: 0.9, turn: 1 },
        { kind: "fact", text: `小明的 GitLab token 是 ${GITLAB}`, importance: 0.9, turn: 9 },
        { kind: "fact", text: "小明的密码是 Passw0rd", importance: 0.9, turn: 0 },
        { kind: "preference", text: "小明喜欢爬山", importance: 0.5, turn: 0 },
      ],
      archive: [],
      summary: null,
    });
    expect(store.candidates.map((c) => [c.decision, c.reason, c.text])).toEqual([
      ["rejected", "credential", "[credential withheld]"],
      ["rejected", "credential", "[credential withheld]"],
      ["rejected", "credential", "[credential withheld]"],
      ["insert", null, "小明喜欢爬山"],
    ]);
    expect(store.items.map((m) => m.text)).toEqual(["小明喜欢爬山"]);
    const all = recorded(store);
    for (const piece of ["Zx8Yw7Vu6Ts5", "xY9zW8vU7tS6", "Passw0rd"]) expect(all).not.toContain(piece);
  });

  it("still rejects a candidate without a user turn, by that reason, when it holds no credential", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    await dreamWith(store, {
      memories: [{ kind: "fact", text: "机器人说了好的", importance: 0.2, turn: 1 }],
      archive: [],
      summary: null,
    });
    expect(store.candidates.map((c) => [c.decision, c.reason, c.text])).toEqual([
      ["rejected", "no user turn", "机器人说了好的"],
    ]);
  });

  it("keeps no credential of an archive request's reason or id, honoured or refused", async ({ expect }) => {
    const old = memoryItem(`chat:${A}`, "小明的旧邮箱在用");
    const store = new InMemoryMemory([old]);
    await dreamWith(store, {
      memories: [],
      archive: [
        { id: old.nodeId, reason: "旧密码 Passw0rd 已经改了" },
        { id: "m_does_not_exist", reason: `换了新 key ${GITLAB}` },
        { id: ANTHROPIC, reason: "过时" },
      ],
      summary: null,
    });
    // The honoured request still archives its item; only the model's words are withheld.
    expect(store.items.find((m) => m.nodeId === old.nodeId)?.status).toBe("archived");
    expect(store.candidates.map((c) => c.decision)).toEqual(["archive", "rejected", "rejected"]);
    const all = recorded(store);
    for (const piece of ["Passw0rd", "xY9zW8vU7tS6", "Zx8Yw7Vu6Ts5"]) expect(all).not.toContain(piece);
  });

  it("keeps no credential of a supersede target the model named, but keeps an item id readable", async ({
    expect,
  }) => {
    // A memory id looks random to the detector; it is ours, and the audit trail needs it.
    const elsewhere = memoryItem("chat:qq:private:B", "小红喜欢游泳");
    const store = new InMemoryMemory([elsewhere]);
    await dreamWith(store, {
      memories: [
        { kind: "preference", text: "小明喜欢爬山", importance: 0.5, turn: 0, supersedes: GITLAB },
        { kind: "fact", text: "小明周末有空", importance: 0.5, turn: 0, supersedes: elsewhere.nodeId },
      ],
      archive: [],
      summary: null,
    });
    expect(store.candidates.map((c) => [c.decision, c.reason])).toEqual([
      ["insert", "supersede target [credential withheld] is not an item of the target scope; inserted"],
      ["insert", `supersede target ${elsewhere.nodeId} is not an item of the target scope; inserted`],
    ]);
    expect(recorded(store)).not.toContain("xY9zW8vU7tS6");
  });

  it("writes no summary that holds a credential", async ({ expect }) => {
    const store = new InMemoryMemory();
    await dreamWith(store, { memories: [], archive: [], summary: `聊了爬山；小明贴了 key ${ANTHROPIC}` });
    expect(store.summaries).toEqual([]);
    expect(recorded(store)).not.toContain("Zx8Yw7Vu6Ts5");
  });
});
