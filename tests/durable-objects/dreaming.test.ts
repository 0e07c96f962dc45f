import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { describe, it } from "vitest";
import { settleDreams } from "../support/dream-settle";
import { newMemory, seedMemory, uid } from "../support/memory";
import { c2cBody, eventIdOf, groupAtBody, postQq, turnDone } from "../support/qq-events";
import { underStoredSettings } from "../support/stored-settings";
import { eventually } from "../support/wait";

// Dreaming after 2 waiting turns, 2 a run; offline model → the rule-based extractor.
underStoredSettings(env, { memory: { dreaming: { afterTurns: 2, maxTurnsPerRun: 2 } } });

type NodeRow = {
  node_id: string;
  raw_text: string;
  scope_type: string;
  scope_id: string;
  status: string;
  sensitivity: string;
};
const nodesOf = async (scopeId: string) =>
  (
    await env.DB.prepare(
      "SELECT node_id, raw_text, scope_type, scope_id, status, sensitivity FROM nodes WHERE scope_id = ? AND node_type = 'memory' ORDER BY seq",
    )
      .bind(scopeId)
      .all<NodeRow>()
  ).results;

/** The scope's memory rows once one of them holds `word`. */
const dreamedWith = (scopeId: string, word: string) =>
  eventually(async () => {
    const r = await nodesOf(scopeId);
    return r.some((n) => n.raw_text.includes(word)) ? r : undefined;
  });

/** Says a text in `group` as `member`, the bot @-mentioned, once the turn is done. */
function sayerIn(group: string, member: string): (text: string) => Promise<void> {
  return async (text) => {
    const body = groupAtBody({ group: group.slice("qq:group:".length), member, text });
    await postQq(body);
    await turnDone(group, eventIdOf(body));
  };
}

async function privateSay(user: string, text: string) {
  const body = c2cBody({ user, text });
  await postQq(body);
  await turnDone(`qq:private:${user}`, eventIdOf(body));
}

describe("dreaming in the chat object", () => {
  it("consolidates after N turns, audits every candidate and records the run", async ({ expect }) => {
    const user = `UD${uid()}`;
    const chat = `qq:private:${user}`;
    await privateSay(user, "我喜欢爬山");
    await privateSay(user, "我的老板是王总");
    await settleDreams(chat);
    const rows = await eventually(async () => {
      const r = await nodesOf(chat);
      return r.length === 2 ? r : undefined;
    });
    expect(rows.map((r) => [r.raw_text, r.scope_type, r.sensitivity])).toEqual([
      // QQ events carry no display name here: the openid is shortened in memory text.
      // Learned in a private chat: private by origin (docs/memory.md#private-by-origin).
      [`用户${user.slice(0, 4)}喜欢爬山`, "chat", "private"],
      [`用户${user.slice(0, 4)}的老板是王总`, "chat", "private"],
    ]);
    const candidates = await env.DB.prepare(
      "SELECT origin, decision FROM memory_candidates WHERE chat_key = ?",
    )
      .bind(chat)
      .all();
    expect(candidates.results).toEqual([
      { origin: "dream", decision: "insert" },
      { origin: "dream", decision: "insert" },
    ]);
    const runs = await env.DB.prepare("SELECT turns FROM memory_runs WHERE chat_key = ?").bind(chat).all();
    expect(runs.results).toEqual([{ turns: 4 }]);
    expect((await env.CHAT_SESSION.getByName(chat).stats()).dreamPending).toBe(0);
  });

  it("never deduplicates against or archives another chat's items", async ({ expect }) => {
    const member = `M${uid()}`;
    const groupA = `GA${uid()}`;
    const groupB = `GB${uid()}`;
    const [ofB] = await seedMemory([
      // The very subject key that group A's statements get (the speaker's account key).
      newMemory(`chat:qq:group:${groupB}`, `用户${member.slice(0, 4)}喜欢爬山`, {
        subjectKey: `pref:qquser${member.toLowerCase()}:爬山`,
      }),
    ]);
    for (const text of ["我喜欢爬山", "我不喜欢爬山"]) {
      const body = groupAtBody({ group: groupA, member, text });
      await postQq(body);
      await turnDone(`qq:group:${groupA}`, eventIdOf(body));
    }
    await settleDreams(`qq:group:${groupA}`);
    const mine = await eventually(async () => {
      const r = await nodesOf(`qq:group:${groupA}`);
      return r.length === 2 ? r : undefined;
    });
    expect(mine.map((r) => [r.raw_text, r.status])).toEqual([
      [`用户${member.slice(0, 4)}喜欢爬山`, "superseded"],
      [`用户${member.slice(0, 4)}不喜欢爬山`, "active"],
    ]);
    expect((await nodesOf(`qq:group:${groupB}`)).map((r) => [r.node_id, r.status])).toEqual([
      [ofB, "active"],
    ]);
  });

  it("a retried run whose first attempt committed writes nothing again", async ({ expect }) => {
    const user = `UR${uid()}`;
    const chat = `qq:private:${user}`;
    await privateSay(user, "我喜欢游泳");
    await privateSay(user, "我是老师");
    await settleDreams(chat);
    await eventually(async () => (await nodesOf(chat)).length === 2);
    const run = await env.DB.prepare("SELECT run_id FROM memory_runs WHERE chat_key = ?")
      .bind(chat)
      .first<{ run_id: string }>();
    // Simulate a crash after the D1 commit but before the journal rows were removed: the same
    // rows are back, and the object remembers the run it had started.
    const stub = env.CHAT_SESSION.getByName(chat);
    await runInDurableObject(stub, (_o: ChatSession, state) => {
      const now = Date.now();
      state.storage.sql.exec(
        "INSERT INTO dream_journal (role, name, account, text, ts) VALUES ('user', NULL, ?, '我喜欢游泳', ?), ('user', NULL, ?, '我是老师', ?)",
        `qq:user:${user}`,
        now,
        `qq:user:${user}`,
        now,
      );
      const upTo = state.storage.sql.exec<{ s: number }>("SELECT max(seq) AS s FROM dream_journal").one().s;
      state.storage.sql.exec(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('dream_run', ?)",
        JSON.stringify({ runId: run?.run_id, upTo }),
      );
    });
    await settleDreams(chat);
    await eventually(async () => (await stub.stats()).dreamPending === 0);
    expect((await nodesOf(chat)).length).toBe(2);
    const runs = await env.DB.prepare("SELECT count(*) AS n FROM memory_runs WHERE chat_key = ?")
      .bind(chat)
      .first();
    expect(runs).toEqual({ n: 1 });
  });

  it("words said after a privacy request of another run are dreamed private, as the log marked them", async ({
    expect,
  }) => {
    const member = `MQ${uid()}`;
    const group = `GQ${uid()}`;
    const say = async (text: string) => {
      const body = groupAtBody({ group, member, text });
      await postQq(body);
      await turnDone(`qq:group:${group}`, eventIdOf(body));
    };
    // The request ends one run (two turns a run), and the words it is about open the next.
    await say("我喜欢爬山");
    await say("跟你们说个事，别外传啊");
    await say("我的老板是王总");
    await say("我喜欢游泳");
    await settleDreams(`qq:group:${group}`);
    await runDurableObjectAlarm(env.CHAT_SESSION.getByName(`qq:group:${group}`));
    const rows = await eventually(async () => {
      const r = await nodesOf(`qq:group:${group}`);
      return r.some((n) => n.raw_text.includes("王总")) ? r : undefined;
    });
    const boss = rows.find((n) => n.raw_text.includes("王总"));
    expect(boss?.scope_type).toBe("chat");
    expect(boss?.sensitivity).not.toBe("public");
  });

  it("a group's words are not dreamed before their speaker's request of the minutes after can mark them", async ({
    expect,
  }) => {
    const member = `MW${uid()}`;
    const group = `qq:group:GW${uid()}`;
    const say = sayerIn(group, member);
    // Two turns wait: a run is due at once by count, before the request a minute later.
    await say("我的老板是李总");
    await say("我喜欢游泳");
    await runDurableObjectAlarm(env.CHAT_SESSION.getByName(group));
    expect((await nodesOf(group)).filter((n) => n.raw_text.includes("李总"))).toEqual([]);
    await say("刚才那个别外传");
    await settleDreams(group);
    const rows = await dreamedWith(group, "李总");
    expect(rows.filter((n) => n.raw_text.includes("李总")).map((n) => n.sensitivity)).not.toContain("public");
  });

  it("a request that nothing be kept keeps its speaker's statement out of a run taken before the request", async ({
    expect,
  }) => {
    const member = `MK${uid()}`;
    const group = `qq:group:GK${uid()}`;
    const say = sayerIn(group, member);
    await say("我喜欢游泳");
    await say("我的老板是李总");
    await say("机器人别记这个");
    // Two turns a run: the first run holds both statements, the request waits for the next.
    await settleDreams(group);
    const rows = await dreamedWith(group, "游泳");
    expect(rows.filter((n) => n.raw_text.includes("李总"))).toEqual([]);
  });
});
