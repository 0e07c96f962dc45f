// Decay never changes who may read (docs/invariants.md#decay-changes-ranking-never-readers): a
// member's private and secret_like items — decayed for years, expired as done tasks, kept forever,
// reinforced over and over — never reach a group turn: not its automatic recall, not
// memory_search, with hard or soft scope, with the member's private chat linked into the group's
// cluster (public items only), and for wordings of the items this test did not pick to match
// (traditional characters, English, mixed case, a question around them). The same run repeats
// everything with decay off, the baseline: both must hide the same items and show the controls.
// A group turn also never reinforces a private item it could not read.
import { env } from "cloudflare:workers";
import { D1ProfileStore } from "@src/adapters/d1/d1-profile-store";
import { sessionRegistry } from "@src/composition/common/forgetting-session-registry";
import { taskExpiryJob } from "@src/composition/cron/task-expiry-job";
import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import { DEFAULT_MEMORY_DECAY_SETTINGS } from "@src/domain/config/memory-decay-settings";
import { DEFAULT_SETTINGS, type Settings } from "@src/domain/config/settings";
import { silentLogger } from "@src/domain/kernel/logger";
import { describe, it } from "vitest";
import { messageEvent } from "../fakes/inbound";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { turnPorts } from "../fakes/turn-ports";
import { memoryStore, newMemory, seedMemory, uid } from "../support/memory";
import { registerChat, sessionsApi } from "../support/sessions";
import { turnContext } from "../support/turn-context";

const DAY = 86_400_000;
const YEARS = 5 * 365 * DAY;

/** A member's private chat linked into a group's cluster, both with memory of every standing. */
async function world() {
  const tag = uid();
  const group = `qq:group:G${tag}`;
  const user = `U${tag}`;
  const priv = `qq:private:${user}`;
  for (const chat of [group, priv]) await registerChat(chat);
  const linked = await sessionsApi(`/${group}/link`, { with: priv, confirm: true });
  if (linked.status !== 200) throw new Error(`link failed: ${linked.status}`);
  const now = Date.now();
  const hidden = {
    decayed: `他的甲状腺复查 thyroid checkup 在周三${tag}`,
    expired: `他要去医院拿甲状腺病历${tag}`,
    kept: `他的银行卡 Bank PIN 提示是甲状腺${tag}`,
    reinforced: `他私下说甲状腺结节 nodule 的事${tag}`,
  };
  const open = {
    groupOld: `群里约好体检时问甲状腺的事${tag}`,
    groupKept: `群规：甲状腺话题别刷屏${tag}`,
  };
  const p = (text: string, over: Parameters<typeof newMemory>[2] = {}) =>
    newMemory(`chat:${priv}`, text, {
      kind: "fact",
      sensitivity: "private",
      sensitivitySource: "origin",
      ...over,
    });
  const [decayed] = await seedMemory([p(hidden.decayed)], now - YEARS);
  const [expired] = await seedMemory(
    [p(hidden.expired, { kind: "task", sensitivity: "secret_like", sensitivitySource: "dream" })],
    now - 400 * DAY,
  );
  const [kept, reinforced] = await seedMemory([
    p(hidden.kept, { sensitivity: "secret_like", sensitivitySource: "explicit", importance: 0.95 }),
    p(hidden.reinforced),
  ]);
  const [groupOld] = await seedMemory(
    [newMemory(`chat:${group}`, open.groupOld, { kind: "fact" })],
    now - YEARS,
  );
  const [groupKept] = await seedMemory([newMemory(`chat:${group}`, open.groupKept, { kind: "rule" })]);
  const mark = (id: string | undefined, sql: string) =>
    env.DB.prepare(`UPDATE nodes SET ${sql} WHERE node_id = ?`)
      .bind(id as string)
      .run();
  await mark(kept, "keep_forever = 1");
  await mark(groupKept, "keep_forever = 1");
  const store = memoryStore();
  for (let i = 0; i < 5; i++)
    await store.reinforce([reinforced as string], { kind: "used", key: `p${i}` }, now);
  await taskExpiryJob(env, DEFAULT_SETTINGS, now);
  const ids = { decayed, expired, kept, reinforced, groupOld, groupKept };
  return { tag, group, priv, user, hidden, open, ids };
}

/** Wordings of the hidden items this test did not choose to match them. */
const wordings = (tag: string) => [
  "甲状腺",
  "甲狀腺 病歷", // traditional
  "THYROID Checkup",
  "bank pin",
  "nodule?",
  `你还记得他的甲状腺的事吗 ${tag}`,
  `${tag}`,
  "他私下 說過 甲状腺 结节 吗",
];

const settingsOf = (decay: boolean, softScope: boolean): Settings => ({
  ...DEFAULT_SETTINGS,
  memory: {
    ...DEFAULT_SETTINGS.memory,
    retrieval: { ...DEFAULT_SETTINGS.memory.retrieval, softScope, recallLimit: 8 },
    decay: decay
      ? DEFAULT_MEMORY_DECAY_SETTINGS
      : {
          ...DEFAULT_MEMORY_DECAY_SETTINGS,
          halfLifeDays: Object.fromEntries(
            Object.keys(DEFAULT_MEMORY_DECAY_SETTINGS.halfLifeDays).map((k) => [k, 0]),
          ) as Settings["memory"]["decay"]["halfLifeDays"],
        },
  },
});

/** A turn in `chat` that recalls automatically and calls memory_search with the same words. */
async function ask(chat: string, sender: string, text: string, settings: Settings) {
  const store = memoryStore();
  const model = new ScriptedChatModel([
    { toolCalls: [{ id: "s1", name: "memory_search", arguments: JSON.stringify({ query: text }) }] },
    { text: "好" },
  ]);
  const event = messageEvent({ chat, text, sender, name: "他", eventId: `e${uid()}` });
  await runTurn(
    turnContext(event, { text, settings, now: Date.now() }),
    turnPorts({
      model,
      memory: {
        store,
        index: store,
        links: sessionRegistry(env, async () => settings),
        profiles: new D1ProfileStore(env.DB),
      },
    }),
    defaultTurnRegistry(silentLogger),
  );
  return JSON.stringify(model.requests);
}

const counts = async (ids: readonly (string | undefined)[]) =>
  (
    await env.DB.prepare(
      "SELECT node_id, reinforce_count FROM nodes WHERE node_id IN (SELECT value FROM json_each(?)) ORDER BY node_id",
    )
      .bind(JSON.stringify(ids))
      .all<{ node_id: string; reinforce_count: number }>()
  ).results;

describe("decayed, expired, kept-forever and reinforced private items in a group turn", () => {
  it.for([false, true])(
    "reach none of it, decay on and off alike (soft scope %s)",
    async (soft, { expect }) => {
      const w = await world();
      const privateIds = [w.ids.decayed, w.ids.expired, w.ids.kept, w.ids.reinforced];
      const before = await counts(privateIds);
      const hiddenTexts = Object.values(w.hidden);
      for (const decay of [true, false]) {
        const settings = settingsOf(decay, soft);
        const seenControls = new Set<string>();
        for (const text of wordings(w.tag)) {
          const seen = await ask(w.group, w.user, text, settings);
          expect({ decay, text, leaks: hiddenTexts.filter((h) => seen.includes(h)) }).toEqual({
            decay,
            text,
            leaks: [],
          });
          for (const o of Object.values(w.open)) if (seen.includes(o)) seenControls.add(o);
        }
        // Controls: the group's own decayed and kept-forever items reach the same turns.
        expect([...seenControls].sort(), `decay ${decay}`).toEqual(Object.values(w.open).sort());
      }
      // A group turn never reinforces what it could not read.
      expect(await counts(privateIds)).toEqual(before);

      // The member's own private chat reads the live ones with the same words: the wordings do hit.
      const own = await ask(w.priv, w.user, "甲状腺 thyroid nodule bank", settingsOf(true, soft));
      for (const text of [w.hidden.decayed, w.hidden.kept, w.hidden.reinforced]) expect(own).toContain(text);
      // An expired task is archived: no chat recalls it, its own included.
      expect(own).not.toContain(w.hidden.expired);
      const expired = await env.DB.prepare("SELECT status, expired_at FROM nodes WHERE node_id = ?")
        .bind(w.ids.expired as string)
        .first<{ status: string; expired_at: number | null }>();
      expect(expired?.status).toBe("archived");
      expect(expired?.expired_at).not.toBeNull();
    },
  );
});
