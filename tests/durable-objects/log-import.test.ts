// A chat object takes its chat's D1 rows page by page (the owner's migration): each row once,
// D1's marks applied, its chat's rows only, and the log's home moves only when the counts agree.

import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { LocalLog } from "@src/durable-objects/local-log";
import type { ImportRow } from "@src/durable-objects/log-import";
import { Outbox } from "@src/durable-objects/outbox";
import { describe, it } from "vitest";
import {
  chatMessage,
  chatMessages,
  d1Log,
  groupKey,
  objectFromBeforeTheMove,
  objectLog,
  seedD1,
} from "../support/log-migration";

const stubOf = (chat: string) => env.CHAT_SESSION.getByName(chat);

async function d1Page(chat: string, n: number, recalled: number[] = []) {
  const messages = chatMessages(chat, n);
  await seedD1(
    messages,
    messages.filter((_, i) => recalled.includes(i + 1)),
  );
  return (await d1Log(chat)) as ImportRow[];
}

/** A chat of `n` D1 rows whose object, made before the move, has taken them all. */
async function copiedChat(n: number) {
  const chat = groupKey();
  const rows = await d1Page(chat, n);
  await objectFromBeforeTheMove(chat);
  const stub = stubOf(chat);
  await stub.importLog(rows);
  return { chat, stub };
}

describe("a chat object importing its D1 log", () => {
  it("writes a page once however often it is sent, and applies D1's recall to a row it had", async ({
    expect,
  }) => {
    const chat = groupKey();
    const rows = await d1Page(chat, 6, [2]);
    // The object logged message 2 itself before the recall reached it.
    await objectFromBeforeTheMove(chat, [chatMessage(chat, 2)]);
    const stub = stubOf(chat);
    expect(await stub.importLog(rows)).toEqual({ ok: true, added: 5, present: 1 });
    expect(await stub.importLog(rows)).toEqual({ ok: true, added: 0, present: 6 });
    expect(await objectLog(chat)).toEqual(rows);
    expect(await stub.logCount()).toBe(6);
    expect(await stub.logHome()).toBe("d1");
  });

  it("refuses a page holding another chat's row whole, and a row that is no log row", async ({ expect }) => {
    const chat = groupKey();
    const other = groupKey();
    const mine = await d1Page(chat, 4);
    const theirs = await d1Page(other, 1);
    await objectFromBeforeTheMove(chat);
    const stub = stubOf(chat);
    const mixed = await stub.importLog([...mine.slice(0, 2), ...theirs, ...mine.slice(2)]);
    expect(mixed).toMatchObject({ ok: false, row: 2 });
    expect(mixed.ok ? "" : mixed.reason).toContain(`belongs to ${other}`);
    const sideways = { ...mine[0], direction: "sideways" } as unknown as ImportRow;
    expect(await stub.importLog([mine[1] as ImportRow, sideways])).toMatchObject({
      ok: false,
      reason: "row 1: direction must be 'in' or 'out'",
    });
    expect(await stub.importLog("rows" as unknown as ImportRow[])).toMatchObject({ ok: false });
    const tooMany = Array.from({ length: 1001 }, () => mine[0] as ImportRow);
    expect(await stub.importLog(tooMany)).toMatchObject({ ok: false, reason: "at most 1000 rows a page" });
    expect(await stub.logCount()).toBe(0);
  });

  it("records the chat of its first page when it never saw one, then holds to it", async ({ expect }) => {
    const chat = groupKey();
    const rows = await d1Page(chat, 2);
    // A bare object (only named): nothing recorded, nothing logged.
    const stub = stubOf(chat);
    expect(await stub.importLog([])).toEqual({ ok: true, added: 0, present: 0 });
    expect(await stub.importLog(rows)).toMatchObject({ ok: true, added: 2 });
    const stranger = (await d1Page(groupKey(), 1))[0] as ImportRow;
    expect(await stub.importLog([stranger])).toMatchObject({ ok: false, row: 0 });
  });

  it("becomes the log's home only when it holds D1's count, and says by how much it differs", async ({
    expect,
  }) => {
    const chat = groupKey();
    const rows = await d1Page(chat, 5, [3]);
    await objectFromBeforeTheMove(chat);
    const stub = stubOf(chat);
    await stub.importLog(rows.slice(0, 3));
    expect(await stub.finishImport(5)).toEqual({
      verified: false,
      home: "d1",
      count: 3,
      expected: 5,
      difference: -2,
    });
    expect(await stub.logHome()).toBe("d1");
    await stub.importLog(rows.slice(3));
    expect(await stub.finishImport(5)).toEqual({ verified: true, home: "object", count: 5 });
    expect(await stub.logHome()).toBe("object");
    await stub.resetLogHome();
    expect(await stub.finishImport(-1)).toEqual({
      verified: false,
      home: "d1",
      refused: "expectedCount must be a whole number of rows, not -1",
    });
    expect(await stub.resetLogHome()).toEqual({ home: "d1", resent: 0, recalls: 0 });
    expect(await stub.logHome()).toBe("d1");
  });

  it("counts a message that arrived during the copy and waits for its D1 flush, and no other extra row", async ({
    expect,
  }) => {
    const { chat, stub } = await copiedChat(3);
    // Logged here beside D1 during the copy; its D1 row waits in the outbox.
    await runInDurableObject(stub, (_o: ChatSession, state) => {
      const m = chatMessage(chat, 4);
      new LocalLog(state.storage.sql).append(m);
      new Outbox(state.storage.sql).push({ kind: "message", body: m }, Date.now());
    });
    expect(await stub.finishImport(3)).toEqual({ verified: true, home: "object", count: 4 });
    await stub.resetLogHome();
    // A row the object has and D1 lost (its flush done, D1's copy deleted since): not explained.
    await runInDurableObject(stub, (_o: ChatSession, state) => state.storage.sql.exec("DELETE FROM outbox"));
    expect(await stub.finishImport(3)).toMatchObject({ verified: false, home: "d1", difference: 1 });
  });

  it("on a rollback, queues for D1 what only it logged since it became the home, and every recall", async ({
    expect,
  }) => {
    const { chat, stub } = await copiedChat(3);
    expect(await stub.finishImport(3)).toMatchObject({ verified: true });
    // Since then the chat's rows stay in the object only: a new message, and a recall of an old one.
    await runInDurableObject(stub, (_o: ChatSession, state) => {
      const log = new LocalLog(state.storage.sql);
      log.append(chatMessage(chat, 4));
      log.recall({ transport: "qq", chatKey: chat, messageId: "m1" });
    });
    expect(await stub.resetLogHome()).toEqual({ home: "d1", resent: 1, recalls: 1 });
    const queued = await runInDurableObject(stub, (_o: ChatSession, state) =>
      state.storage.sql
        .exec<{ kind: string; body: string }>("SELECT kind, body FROM outbox ORDER BY seq")
        .toArray()
        .map((r) => [r.kind, JSON.parse(r.body).messageId]),
    );
    expect(queued).toEqual([
      ["message", "m4"],
      ["recall", "m1"],
    ]);
  });
});
