import type { AccountKey } from "@src/domain/chat/chat-address";
import { forget, type RememberRequest, remember } from "@src/domain/memory/remember";
import { scopeKey } from "@src/domain/memory/scope";
import { describe, it } from "vitest";
import { InMemoryMemory, memoryItem } from "../../fakes/in-memory-memory";

const NOW = 1_700_000_000_000;
const request = (text: string, over: Partial<RememberRequest> = {}): RememberRequest => ({
  text,
  origin: "explicit",
  scopes: { session: "qq:private:A", identity: null },
  speaker: { name: "小明", id: "qq:user:A" },
  account: "qq:user:A",
  messageId: "m1",
  runId: `turn:e1:remember:${text}`,
  chatKey: "qq:private:A",
  now: NOW,
  ...over,
});

/** Where a write put its first item, as a scope key; false when it was refused. */
const firstScope = (out: Awaited<ReturnType<typeof remember>>) =>
  out.ok && scopeKey(out.value[0]?.item.scope ?? { type: "chat", id: "" });

/** The scopes of an admin who writes global on purpose in `session`. */
const globalOnPurposeIn = (session: string) => ({
  session,
  identity: null,
  writesGlobal: true,
  globalOnPurpose: true,
});

describe("remember", () => {
  it("writes at once into the scope the kind maps to, audited as explicit", async ({ expect }) => {
    const store = new InMemoryMemory();
    const out = await remember(store, request("我喜欢猫"));
    expect(out.ok && out.value.map((w) => [w.decision, w.item.text, scopeKey(w.item.scope)])).toEqual([
      ["insert", "小明喜欢猫", "chat:qq:private:A"],
    ]);
    expect(store.candidates).toEqual([
      expect.objectContaining({
        origin: "explicit",
        decision: "insert",
        kind: "preference",
        text: "小明喜欢猫",
      }),
    ]);
    // A shared kind stays in the chat it was said in, unless an admin writes it global on
    // purpose in a shared chat; in a private chat not even then.
    const decision = await remember(store, request("我们决定周五发布"));
    expect(firstScope(decision)).toBe("chat:qq:private:A");
    const byAdmin = await remember(
      store,
      request("我们决定周六发布", {
        scopes: globalOnPurposeIn("qq:private:A"),
      }),
    );
    expect(firstScope(byAdmin)).toBe("chat:qq:private:A");
    const inGroup = await remember(
      store,
      request("我们决定周日发布", {
        scopes: globalOnPurposeIn("qq:group:G"),
        chatKey: "qq:group:G",
      }),
    );
    expect(firstScope(inGroup)).toBe("global:__global__");
  });

  it("refuses to write in a legacy session, whose only scope is global, for anyone but an admin", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    const legacy = { scopes: { session: "milky:10001", identity: null }, chatKey: "milky:10001" };
    const out = await remember(store, request("我喜欢猫", legacy));
    expect(out).toMatchObject({ ok: false, error: { kind: "not-writable" } });
    expect(store.items).toEqual([]);
  });

  it("marks a privacy phrase explicit and keeps it out of the text", async ({ expect }) => {
    const store = new InMemoryMemory();
    await remember(store, request("我怕狗，别告诉别人"));
    expect(store.items).toEqual([
      expect.objectContaining({
        text: "小明怕狗",
        sensitivity: "secret_like",
        sensitivitySource: "explicit",
      }),
    ]);
  });

  it("keeps a group item private when its speaker asked for privacy around the message", async ({
    expect,
  }) => {
    const inGroup = { scopes: { session: "qq:group:G1", identity: null }, chatKey: "qq:group:G1" };
    const store = new InMemoryMemory();
    await remember(store, request("我下个月离职", { ...inGroup, asked: "private" }));
    await remember(store, request("我喜欢钓鱼", inGroup));
    // A stricter request of the message's own words still wins over the one around it.
    await remember(store, request("我怕狗，别告诉别人", { ...inGroup, asked: "private" }));
    // …and so does what the words hold by themselves: the request around is a floor.
    await remember(store, request("我的病历在抽屉里", { ...inGroup, asked: "private" }));
    expect(store.items.map((m) => [m.text, m.sensitivity, m.sensitivitySource])).toEqual([
      ["小明下个月离职", "private", "explicit"],
      ["小明喜欢钓鱼", "public", "default"],
      ["小明怕狗", "secret_like", "explicit"],
      ["小明的病历在抽屉里", "secret_like", "dream"],
    ]);
  });

  it("takes memory_write's sensitivity as explicit, but not a model's 'public' over a noticed secret", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    await remember(
      store,
      request("小明对花生过敏", { origin: "tool", kind: "fact", sensitivity: "private" }),
    );
    await remember(
      store,
      request("小明的身份证快过期了", { origin: "tool", kind: "fact", sensitivity: "public" }),
    );
    // In a shared chat, today's rules; the same writes in a private chat are at least private by origin.
    const group = { scopes: { session: "qq:group:G", identity: null }, chatKey: "qq:group:G" };
    await remember(
      store,
      request("小明对芒果过敏", { origin: "tool", kind: "fact", sensitivity: "private", ...group }),
    );
    await remember(
      store,
      request("小明的身份证下个月到期", { origin: "tool", kind: "fact", sensitivity: "public", ...group }),
    );
    await remember(
      store,
      request("小明喜欢爬山", { origin: "tool", kind: "fact", sensitivity: "public", ...group }),
    );
    await remember(store, request("小明喜欢游泳", { origin: "tool", kind: "fact", sensitivity: "public" }));
    expect(store.items.map((m) => [m.sensitivity, m.sensitivitySource])).toEqual([
      ["private", "explicit"],
      ["secret_like", "origin"],
      ["private", "explicit"],
      ["secret_like", "dream"],
      ["public", "explicit"],
      ["private", "origin"],
    ]);
  });

  // The second value reads like a question to the message rules; what 记住 would keep says what
  // a password is, and that is refused whatever the value (credential-statements.ts).
  it.for(["我的密码是 hunter2hunter2", "我家wifi密码是作业写完了吗老铁"])(
    "refuses credentials and stores nothing: %s",
    async (said, { expect }) => {
      const store = new InMemoryMemory();
      const out = await remember(store, request(said));
      expect(out).toMatchObject({ ok: false, error: { kind: "credential" } });
      expect(store.items).toEqual([]);
      expect(store.candidates).toEqual([]);
    },
  );

  it("deduplicates within the target scope only, and a stricter explicit request updates the tag", async ({
    expect,
  }) => {
    const store = new InMemoryMemory([memoryItem("chat:qq:private:B", "小明喜欢猫")]);
    await remember(store, request("我喜欢猫"));
    expect(store.items.filter((m) => m.text === "小明喜欢猫")).toHaveLength(2);
    const again = await remember(store, request("我喜欢猫，这是私下的", { runId: "turn:e2:remember" }));
    expect(again.ok && again.value[0]?.decision).toBe("duplicate");
    const mine = store.items.find((m) => m.scope.id === "qq:private:A");
    expect(mine).toMatchObject({ sensitivity: "private", sensitivitySource: "explicit", importance: 0.75 });
    expect(store.items.find((m) => m.scope.id === "qq:private:B")?.sensitivity).toBe("public");
  });

  it("supersedes an earlier statement of the same subject in the same scope", async ({ expect }) => {
    const store = new InMemoryMemory();
    await remember(store, request("我喜欢猫"));
    await remember(store, request("我不喜欢猫", { runId: "turn:e2:remember" }));
    expect(store.items.map((m) => [m.text, m.status])).toEqual([
      ["小明喜欢猫", "superseded"],
      ["小明不喜欢猫", "active"],
    ]);
  });

  it("writes the same ids when a turn is retried", async ({ expect }) => {
    const store = new InMemoryMemory();
    await remember(store, request("我喜欢猫"));
    await remember(store, request("我喜欢猫"));
    expect(store.items).toHaveLength(1);
  });

  it("sends a person's preference to their person scope with identity on", async ({ expect }) => {
    const store = new InMemoryMemory();
    await remember(
      store,
      request("我喜欢猫", {
        scopes: {
          session: "qq:private:A",
          identity: { enabled: true, account: "qq:user:A" as AccountKey, personId: "alice", declared: true },
        },
      }),
    );
    expect(store.items.map((m) => scopeKey(m.scope))).toEqual(["person:alice"]);
  });
});

describe("forget", () => {
  it("archives an item of a writable scope and refuses others as not found", async ({ expect }) => {
    const mine = memoryItem("chat:qq:private:A", "小明喜欢猫");
    const theirs = memoryItem("chat:qq:private:B", "小红喜欢狗");
    const store = new InMemoryMemory([mine, theirs]);
    const scopes = { session: "qq:private:A", identity: null };
    const base = {
      scopes,
      runId: "turn:e:forget",
      chatKey: "qq:private:A",
      now: NOW,
      reason: "memory_forget",
      how: "archive" as const,
    };
    expect(await forget(store, { ...base, nodeId: theirs.nodeId })).toMatchObject({
      ok: false,
      error: { kind: "not-found" },
    });
    expect((await forget(store, { ...base, nodeId: mine.nodeId })).ok).toBe(true);
    expect(store.items.map((m) => m.status)).toEqual(["archived", "active"]);
    expect(store.candidates).toEqual([
      expect.objectContaining({ origin: "tool", decision: "archive", targetNodeId: mine.nodeId }),
    ]);
  });

  it("keeps the model's reason for an archive with no credential in it", async ({ expect }) => {
    const item = memoryItem("chat:qq:private:A", "小明喜欢猫");
    const store = new InMemoryMemory([item]);
    // The model writes the reason: it may repeat what a detector missed on the way in, or quote it.
    const reasons = ["用户说他家 wifi 密码是 Xk7731ab，已经改了", "用户让我忘掉，门禁密码520那条也别提"];
    for (const [i, reason] of reasons.entries()) {
      store.items.splice(0, 1, { ...item, status: "active" });
      const done = await forget(store, {
        scopes: { session: "qq:private:A", identity: null },
        runId: `turn:e:forget:${i}`,
        chatKey: "qq:private:A",
        now: NOW,
        reason: `memory_forget: ${reason}`,
        how: "archive",
        nodeId: item.nodeId,
      });
      expect(done.ok).toBe(true);
    }
    const kept = store.candidates.map((c) => c.reason ?? "").join("\n");
    expect(kept).toContain("memory_forget: 用户说他家 wifi 密码是 [已隐藏的凭据]");
    for (const value of ["Xk7731ab", "520"]) expect(kept).not.toContain(value);
  });

  it("erases, for the person's own /forget, the item and every candidate row that copies its text", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    const scopes = { session: "qq:private:A", identity: null };
    expect((await remember(store, request("我对芒果过敏"))).ok).toBe(true);
    const kept = memoryItem("chat:qq:private:A", "小明喜欢猫");
    store.items.push(kept);
    const mango = store.items.find((m) => m.text.includes("芒果"));
    expect(store.candidates.some((r) => r.text.includes("芒果"))).toBe(true);
    const base = { scopes, runId: "turn:e:forget", chatKey: "qq:private:A", now: NOW, reason: "/forget" };
    const gone = await forget(store, { ...base, nodeId: mango?.nodeId ?? "", how: "erase" });
    expect(gone.ok).toBe(true);
    expect(store.items).toEqual([kept]);
    expect(store.candidates.filter((r) => r.text.includes("芒果"))).toEqual([]);
    // Once more: nothing is left to erase, and the answer says so.
    const again = await forget(store, { ...base, nodeId: mango?.nodeId ?? "", how: "erase" });
    expect(again).toMatchObject({ ok: false, error: { kind: "not-found" } });
  });

  // A declared person's group turn may write their person scope but reads only its public
  // items there: forgetting a private one from the group would say it where others listen.
  it("in a group, forgets the person's public items only; the private ones answer not found", async ({
    expect,
  }) => {
    const open = memoryItem("person:alice", "爱丽丝喜欢爬山");
    const quiet = memoryItem("person:alice", "爱丽丝下个月去医院复查", { sensitivity: "private" });
    const secret = memoryItem("person:alice", "爱丽丝的银行卡尾号是四四一七", { sensitivity: "secret_like" });
    const store = new InMemoryMemory([open, quiet, secret]);
    const identity = {
      enabled: true,
      account: "qq:user:A" as AccountKey,
      personId: "alice",
      declared: true,
    };
    const inChat = (session: string) => ({
      scopes: { session, identity },
      runId: `turn:e:forget:${session}`,
      chatKey: session,
      now: NOW,
      reason: "memory_forget",
      how: "archive" as const,
    });
    for (const item of [quiet, secret]) {
      expect(await forget(store, { ...inChat("qq:group:G1"), nodeId: item.nodeId })).toMatchObject({
        ok: false,
        error: { kind: "not-found" },
      });
    }
    expect((await forget(store, { ...inChat("qq:group:G1"), nodeId: open.nodeId })).ok).toBe(true);
    expect(store.items.map((m) => m.status)).toEqual(["archived", "active", "active"]);
    // In the person's own private chat every level is theirs to forget.
    expect((await forget(store, { ...inChat("qq:private:A"), nodeId: secret.nodeId })).ok).toBe(true);
    expect(store.items.map((m) => m.status)).toEqual(["archived", "active", "archived"]);
  });
});
