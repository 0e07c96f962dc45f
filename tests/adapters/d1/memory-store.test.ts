import { env } from "cloudflare:workers";
import { memoryContentHash } from "@src/adapters/d1/memory-content-hash";
import type { MemoryCommit } from "@src/domain/memory/memory-store";
import { parseScopeKey, type Scope, scopeToken } from "@src/domain/memory/scope";
import { ALL_LEVELS } from "@src/domain/retrieval/read-gate";
import { describe, it } from "vitest";
import { memoryStore, newMemory, seedMemory, uid } from "../../support/memory";

const s = (key: string) => parseScopeKey(key) as Scope;

describe("D1 memory index", () => {
  it("finds Chinese memory by a two-character word, only in the scopes asked", async ({ expect }) => {
    const a = `chat:qq:group:A${uid()}`;
    const b = `chat:qq:group:B${uid()}`;
    await seedMemory([
      newMemory(a, "小明喜欢吃火锅"),
      newMemory(b, "小红也喜欢吃火锅"),
      newMemory(a, "小明是学生"),
    ]);
    const hits = await memoryStore().search({ text: "火锅", scopes: [s(a)], limit: 10 });
    expect(hits.map((h) => h.text)).toEqual(["小明喜欢吃火锅"]);
    expect(hits[0]?.rank).toBeLessThan(0);
    // FTS syntax in user text is only ever a quoted token.
    expect(await memoryStore().search({ text: '"* NEAR( -火锅:', scopes: [s(a)], limit: 10 })).toHaveLength(
      1,
    );
  });

  it("caps hits per scope so that a cascade can fill its budget scope by scope", async ({ expect }) => {
    const a = `chat:qq:group:A${uid()}`;
    const g = `person:p${uid()}`;
    await seedMemory([
      ...Array.from({ length: 6 }, (_, i) => newMemory(a, `周五开会 第${i}次`)),
      newMemory(g, "周五开会要带电脑"),
    ]);
    const hits = await memoryStore().search({
      text: "周五开会",
      scopes: [s(a), s(g)],
      limit: 20,
      perScope: 2,
    });
    expect(hits.filter((h) => h.scope.id === a.slice(5))).toHaveLength(2);
    expect(hits.filter((h) => h.scope.type === "person")).toHaveLength(1);
  });

  it("soft scope shows public portable items of other scopes, never private, secret_like or non-portable", async ({
    expect,
  }) => {
    const mine = `chat:qq:group:M${uid()}`;
    const other = `chat:qq:private:O${uid()}`;
    const word = `词${uid()}`;
    await seedMemory([
      newMemory(other, `${word} 公开的事`),
      newMemory(other, `${word} 私事`, { sensitivity: "private", sensitivitySource: "dream" }),
      newMemory(other, `${word} 秘密`, { sensitivity: "secret_like", sensitivitySource: "explicit" }),
      newMemory(other, `${word} 群外号`, { portable: false }),
      newMemory(mine, `${word} 我自己的秘密`, { sensitivity: "secret_like" }),
    ]);
    const soft = await memoryStore().search({ text: word, scopes: [s(mine)], soft: true, limit: 10 });
    expect(soft.map((h) => h.text).sort()).toEqual([`${word} 我自己的秘密`, `${word} 公开的事`].sort());
    const hard = await memoryStore().search({ text: word, scopes: [s(mine)], limit: 10 });
    expect(hard.map((h) => h.text)).toEqual([`${word} 我自己的秘密`]);
  });

  // 60 hidden items fit the first, windowed step; 250 overflow it and take the exact fallback.
  it.for([60, 250])(
    "does not starve: %i filtered items that rank first cannot crowd out a visible one",
    async (hidden, { expect }) => {
      const mine = `chat:qq:group:M${uid()}`;
      const word = `star${uid()}`;
      await seedMemory([
        ...Array.from({ length: hidden }, (_, i) =>
          newMemory(`chat:qq:private:P${i}${uid()}`, `${word} ${word} ${word} 私密 ${i}`, {
            sensitivity: i % 3 === 0 ? "private" : i % 3 === 1 ? "secret_like" : "public",
            portable: i % 3 !== 2,
            sensitivitySource: "dream",
          }),
        ),
        newMemory(`chat:qq:group:V${uid()}`, `${word} 以及很多别的很长的无关内容，让它排名靠后`),
      ]);
      const soft = await memoryStore().search({ text: word, scopes: [s(mine)], soft: true, limit: 3 });
      expect(soft.map((h) => [h.sensitivity, h.portable])).toEqual([["public", true]]);
      expect(soft[0]?.text).toContain("无关内容");
    },
  );

  it("stores the scope token SQLite derives, and the domain computes the same", async ({ expect }) => {
    const key = `person:小明${uid()}`;
    const [id] = await seedMemory([newMemory(key, "小明喜欢猫")]);
    const row = await env.DB.prepare("SELECT scope_token FROM nodes WHERE node_id = ?")
      .bind(id)
      .first<{ scope_token: string }>();
    expect(row?.scope_token).toBe(scopeToken(s(key)));
  });
});

/** The scope keys of two people's private chats. */
const twoPrivateChats = () => [`chat:qq:private:A${uid()}`, `chat:qq:private:B${uid()}`] as const;

/** A commit into `scope`'s chat that may write `scope` and changes nothing but what `change` says. */
const commitIn = (scope: string, change: Partial<MemoryCommit>) =>
  memoryStore().commit({
    runId: `t:${uid()}`,
    chatKey: scope.slice(5),
    at: Date.now(),
    writable: [s(scope)],
    inserts: [],
    supersede: [],
    archive: [],
    updates: [],
    candidates: [],
    ...change,
  });

describe("D1 memory store", () => {
  it("erases an item of a writable scope with its edges and copies, counted once; another scope's stays", async ({
    expect,
  }) => {
    const [a, b] = twoPrivateChats();
    const [oldA, ofB, newA] = await seedMemory([
      newMemory(a, "A 住在北京"),
      newMemory(b, "B 住在广州"),
      newMemory(a, "A 住在上海"),
    ]);
    const commit = (c: Partial<MemoryCommit>) => commitIn(a, c);
    await commit({ supersede: [{ oldId: oldA as string, newId: newA as string }] });
    const report = await commit({ erase: [oldA as string, ofB as string] });
    expect(report).toMatchObject({ ok: true, value: { erased: 1, archived: 0 } });
    const left = await env.DB.prepare(
      `SELECT (SELECT count(*) FROM nodes WHERE node_id IN (?1, ?2)) AS gone,
              (SELECT count(*) FROM edges WHERE src_id = ?1 OR dst_id = ?1) AS edges,
              (SELECT count(*) FROM nodes WHERE node_id IN (?3, ?4)) AS kept`,
    )
      .bind(oldA, "none", ofB, newA)
      .first();
    expect(left).toEqual({ gone: 0, edges: 0, kept: 2 });
    // Once more: nothing is left, and the report says so.
    expect(await commit({ erase: [oldA as string] })).toMatchObject({ ok: true, value: { erased: 0 } });
  });

  it("archives and supersedes only inside the commit's writable scopes", async ({ expect }) => {
    const [a, b] = twoPrivateChats();
    const [ofA, ofB, newA] = await seedMemory([
      newMemory(a, "A 喜欢猫"),
      newMemory(b, "B 喜欢狗"),
      newMemory(a, "A 不喜欢猫"),
    ]);
    const report = await commitIn(a, {
      writable: [s(a), s("global:__global__")],
      supersede: [{ oldId: ofA as string, newId: newA as string }],
      archive: [ofB as string],
    });
    expect(report).toEqual({
      ok: true,
      value: { inserted: 0, superseded: 1, archived: 0, erased: 0, updated: 0 },
    });
    expect((await memoryStore().get(ofB as string))?.status).toBe("active");
    expect((await memoryStore().get(ofA as string))?.status).toBe("superseded");
    const edge = await env.DB.prepare("SELECT edge_type FROM edges WHERE src_id = ? AND dst_id = ?")
      .bind(newA, ofA)
      .first();
    expect(edge).toEqual({ edge_type: "supersedes" });
  });

  it("updates tag and importance only of items in the commit's writable scopes", async ({ expect }) => {
    const [a, b] = twoPrivateChats();
    const [ofA, ofB] = await seedMemory([newMemory(a, "A 怕狗"), newMemory(b, "B 怕猫")]);
    const tag = { sensitivity: "secret_like" as const, source: "explicit" as const };
    await commitIn(a, {
      updates: [
        { nodeId: ofA as string, tag, importance: 0.8 },
        { nodeId: ofB as string, tag, importance: 0.8 },
      ],
    });
    expect(await memoryStore().get(ofA as string)).toMatchObject({
      sensitivity: "secret_like",
      sensitivitySource: "explicit",
      importance: 0.8,
    });
    expect(await memoryStore().get(ofB as string)).toMatchObject({
      sensitivity: "public",
      sensitivitySource: "default",
      importance: 0.5,
    });
  });

  it("records a run once: a retried commit of the same run writes nothing", async ({ expect }) => {
    const a = `chat:qq:group:A${uid()}`;
    const commit = (text: string) =>
      commitIn(a, {
        runId: `dream:${a}:1-5`,
        chatKey: a,
        inserts: [newMemory(a, text)],
        run: { kind: "dream", turns: 5 },
      });
    expect((await commit("第一次")).ok).toBe(true);
    expect(await commit("第二次（模型换了说法）")).toEqual({
      ok: false,
      error: { kind: "already-applied", runId: `dream:${a}:1-5` },
    });
    const { results } = await env.DB.prepare("SELECT raw_text FROM nodes WHERE scope_id = ?")
      .bind(a.slice(5))
      .all();
    expect(results).toEqual([{ raw_text: "第一次" }]);
  });

  it("finds duplicates by normalized text within one scope only", async ({ expect }) => {
    const a = `chat:qq:group:A${uid()}`;
    const b = `chat:qq:group:B${uid()}`;
    await seedMemory([newMemory(a, "小明喜欢猫。")]);
    expect((await memoryStore().findDuplicate(s(a), "小明 喜欢猫", ALL_LEVELS))?.text).toBe("小明喜欢猫。");
    expect(await memoryStore().findDuplicate(s(b), "小明喜欢猫", ALL_LEVELS)).toBeNull();
    expect(await memoryContentHash("小明喜欢猫。")).toBe(await memoryContentHash("小明喜欢猫"));
  });

  it("lists a scope's items most important first and finds statements of the same subject", async ({
    expect,
  }) => {
    const a = `chat:qq:group:A${uid()}`;
    await seedMemory([
      newMemory(a, "低", { importance: 0.2 }),
      newMemory(a, "高", { importance: 0.9, kind: "rule" }),
      newMemory(a, "小明喜欢猫", { subjectKey: "pref:小明:猫" }),
    ]);
    const list = await memoryStore().listActive({ scopes: [s(a)], limit: 10 });
    expect(list.map((m) => m.text)).toEqual(["高", "小明喜欢猫", "低"]);
    expect(
      (await memoryStore().listActive({ scopes: [s(a)], limit: 10, minImportance: 0.8 })).map((m) => m.text),
    ).toEqual(["高"]);
    expect(
      (await memoryStore().listActive({ scopes: [s(a)], limit: 10, kinds: ["rule"] })).map((m) => m.kind),
    ).toEqual(["rule"]);
    expect((await memoryStore().findBySubject(s(a), "pref:小明:猫", ALL_LEVELS)).map((m) => m.text)).toEqual([
      "小明喜欢猫",
    ]);
  });
});
