/**
 * Validity in time never carries a private item into a group (docs/memory.md#validity-in-time):
 * a private statement closing a public one, a public one said where the private one is hidden,
 * the closed item, its closer and the audit — asked now and about the past, in wordings the
 * slot and past-question rules were not written for.
 */

import type { AccountKey } from "@src/domain/chat/chat-address";
import type { SenderIdentity } from "@src/domain/identity/sender-identity";
import { ownMemory } from "@src/domain/memory/own-memory";
import { recalledText, recallMemory } from "@src/domain/memory/recall";
import { forget, type RememberRequest, remember } from "@src/domain/memory/remember";
import { turnScopes } from "@src/domain/memory/scope";
import { describe, type ExpectStatic, it } from "vitest";
import { InMemoryMemory } from "../../fakes/in-memory-memory";

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 2, 1, 4);
const alice: SenderIdentity = {
  enabled: true,
  account: "qq:user:A" as AccountKey,
  personId: "alice",
  declared: true,
};
const PRIVATE = { session: "qq:private:A", identity: alice };
const GROUP = { session: "qq:group:G1", identity: alice };

const say = (store: InMemoryMemory, text: string, where: typeof PRIVATE, now: number) => {
  const req: RememberRequest = {
    text,
    origin: "explicit",
    scopes: where,
    speaker: { name: "小明", id: "qq:user:A" },
    account: "qq:user:A",
    messageId: `m${now}`,
    runId: `turn:${now}:${text}`,
    chatKey: where.session,
    now,
  };
  return remember(store, req);
};

/** Forgets `nodeId` as asked from `where`, by the tool (archived) or the command (erased). */
const forgetFrom = (
  store: InMemoryMemory,
  nodeId: string,
  where: typeof PRIVATE,
  runId: string,
  reason: "tool" | "command",
) =>
  forget(store, {
    nodeId,
    scopes: where,
    runId,
    chatKey: where.session,
    now: T0 + 2 * DAY,
    reason,
    how: reason === "command" ? "erase" : "archive",
  });

const ask = async (store: InMemoryMemory, text: string, where: typeof PRIVATE, now: number) =>
  (
    await recallMemory(
      { index: store },
      {
        text,
        scopes: turnScopes(where),
        soft: false,
        limit: 10,
        now,
        halfLifeDays: 30,
        timeZone: "Asia/Shanghai",
      },
    )
  ).map(recalledText);

const QUESTIONS = [
  "小明住在哪",
  "小明以前住在哪",
  "小明去年住在哪里",
  "小明之前住哪儿？",
  "where did 小明 live before",
  "小明 2025年 住在",
  "住在",
  "小明原来住的地方",
];

/** Asked each of QUESTIONS in the group at `now`, the memory answers with none of `words`. */
async function groupNeverHears(store: InMemoryMemory, now: number, words: string[], expect: ExpectStatic) {
  for (const q of QUESTIONS) {
    const heard = (await ask(store, q, GROUP, now)).join("\n");
    for (const word of words) expect(heard, q).not.toContain(word);
  }
}

/** The person's own private chat reads the current value, and the old one when asked about the past. */
async function privateChatReadsBoth(store: InMemoryMemory, now: number, expect: ExpectStatic) {
  expect(await ask(store, "小明住在哪", PRIVATE, now)).toEqual(["小明住在上海"]);
  const past = await ask(store, "小明以前住在哪", PRIVATE, now);
  expect(past[0]).toMatch(/^（过去：2025-03-01 至 2025-12-2\d）小明住在北京$/);
}

describe("validity and privacy", () => {
  it("a private statement closes a public one, and the group sees neither, now or in the past", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    await say(store, "我住在北京", GROUP, T0);
    const moved = await say(store, "我搬到上海了", PRIVATE, T0 + 300 * DAY);
    expect(moved.ok && moved.value[0]?.decision).toBe("supersede");
    const old = store.items.find((m) => m.text === "小明住在北京");
    // Closed, not deleted, and it keeps its own sensitivity.
    expect(old).toMatchObject({ status: "superseded", sensitivity: "public", validTo: T0 + 300 * DAY });
    const now = T0 + 400 * DAY;
    // Showing the old value as past would tell the group a hidden newer one exists.
    await groupNeverHears(store, now, ["上海", "北京", "过去"], expect);
    // The person's own private chat: the current value, and the old one asked about the past.
    await privateChatReadsBoth(store, now, expect);
  });

  it("a public statement said where the private one is hidden never closes it, and the group never sees it", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    await say(store, "我住在北京", PRIVATE, T0);
    const moved = await say(store, "我搬到上海了", GROUP, T0 + 300 * DAY);
    // The group turn cannot see the private item: a new write, answered as one.
    expect(moved.ok && moved.value[0]?.decision).toBe("insert");
    expect(store.items.find((m) => m.text === "小明住在北京")?.status).toBe("active");
    const now = T0 + 400 * DAY;
    await groupNeverHears(store, now, ["北京", "过去"], expect);
    // In private both are visible: the newer is current, the older is read as the past.
    await privateChatReadsBoth(store, now, expect);
  });

  it("a private item closed by a private one is never past in a group, and the audit stays in the private chat", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    await say(store, "我在腾讯上班", PRIVATE, T0);
    await say(store, "我跳槽到了阿里", PRIVATE, T0 + 30 * DAY);
    const closing = store.candidates.find((c) => c.decision === "supersede");
    // The audit row is the private chat's, in the person's scope, at the new item's level.
    expect(closing).toMatchObject({ chatKey: "qq:private:A", sensitivity: "private" });
    for (const q of ["小明在哪工作", "小明以前在哪上班", "小明去年在哪工作", "where did 小明 work before"]) {
      const heard = (await ask(store, q, GROUP, T0 + 60 * DAY)).join("\n");
      expect(heard, q).not.toMatch(/腾讯|阿里/);
    }
  });

  it("never closes an item of another scope", async ({ expect }) => {
    const store = new InMemoryMemory();
    const bob = { enabled: true, account: "qq:user:B" as AccountKey, personId: null, declared: false };
    // Undeclared member: their facts stay with the group.
    await say(store, "我住在北京", { session: "qq:group:G1", identity: bob }, T0);
    await say(store, "我住在上海", { session: "qq:group:G2", identity: bob }, T0 + DAY);
    expect(store.items.map((m) => m.status)).toEqual(["active", "active"]);
  });

  it("a closed item is listed and forgotten in the person's private chat, never listed or forgotten in a group", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    await say(store, "我住在北京", GROUP, T0);
    await say(store, "我搬到上海了", PRIVATE, T0 + DAY);
    const old = store.items.find((m) => m.text === "小明住在北京");
    const inGroup = await ownMemory(store, { scopes: GROUP, account: "qq:user:A" });
    expect(inGroup.map((o) => o.item.text)).toEqual([]);
    const byTool = await forgetFrom(store, old?.nodeId ?? "", GROUP, "t1", "tool");
    expect(byTool.ok).toBe(false);
    expect(store.items.find((m) => m.nodeId === old?.nodeId)?.status).toBe("superseded");
    const inPrivate = await ownMemory(store, { scopes: PRIVATE, account: "qq:user:A" });
    expect(inPrivate.map((o) => [o.item.text, o.item.status])).toEqual(
      expect.arrayContaining([
        ["小明住在上海", "active"],
        ["小明住在北京", "superseded"],
      ]),
    );
    const gone = await forgetFrom(store, old?.nodeId ?? "", PRIVATE, "t2", "command");
    expect(gone.ok).toBe(true);
    expect(store.items.find((m) => m.nodeId === old?.nodeId)).toBeUndefined();
    expect((await ask(store, "小明以前住在哪", PRIVATE, T0 + 3 * DAY)).join("\n")).not.toContain("北京");
  });
});
