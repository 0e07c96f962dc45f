import { DEDUPE_RETENTION_MS, Inbox, OLDEST_OPEN_SQL } from "@src/durable-objects/inbox";
import { describe, it } from "vitest";
import { messageEvent } from "../fakes/inbound";
import { inFreshChatObject } from "../support/chat-object";

describe("Inbox", () => {
  it("accepts an event once, refusing a repeat by its event id or by its message id", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const inbox = new Inbox(storage.sql);
      const event = messageEvent({ chat: "qq:group:G1", text: "hi", id: "M1", eventId: "E1" });
      expect(inbox.accept(event, true, 1000)).toBe(true);
      expect(inbox.accept(event, true, 1001)).toBe(false);
      const sameMessage = messageEvent({ chat: "qq:group:G1", text: "hi", id: "M1", eventId: "E-other" });
      expect(inbox.accept(sameMessage, true, 1002)).toBe(false);
      const other = messageEvent({ chat: "qq:group:G1", text: "hi", id: "M-other", eventId: "E-other" });
      expect(inbox.accept(other, true, 1003)).toBe(true);
      expect(storage.sql.exec("SELECT count(*) AS n FROM inbox").one().n).toBe(2);
    });
  });

  it("writes one row per accepted event and holds it untriaged until the alarm triages it", async ({
    expect,
  }) => {
    await inFreshChatObject((storage) => {
      const inbox = new Inbox(storage.sql);
      inbox.accept(messageEvent({ chat: "qq:group:G1", text: "one", eventId: "E1" }), true, 1000);
      expect(inbox.oldestOpen()).toBeNull();
      expect(inbox.oldestUntriaged()).toEqual({ receivedAt: 1000, needsTurn: true });
      const [first] = inbox.untriaged(10);
      expect(first).toMatchObject({ needsTurn: true, receivedAt: 1000 });
      expect(first?.event.message?.text).toBe("one");
      if (!first) return;
      inbox.markTriaged(first.seq, true, 1001);
      expect(inbox.untriaged(10)).toEqual([]);
      expect(inbox.oldestOpen()).toMatchObject({ eventId: "E1", state: "pending" });
    });
  });

  it("keeps a held row from triage until its wait ends or it is released, masked or not", async ({
    expect,
  }) => {
    await inFreshChatObject((storage) => {
      const inbox = new Inbox(storage.sql);
      inbox.accept(
        messageEvent({ chat: "qq:group:G1", text: "Lx20240915", eventId: "E1" }),
        false,
        1000,
        5000,
      );
      inbox.accept(
        messageEvent({ chat: "qq:group:G1", text: "ZK2291008", eventId: "E2" }),
        false,
        1001,
        5001,
      );
      inbox.accept(messageEvent({ chat: "qq:group:G1", text: "收到", eventId: "E3" }), false, 1002);
      expect(inbox.untriaged(10, 2000).map((r) => r.event.eventId)).toEqual(["E3"]);
      expect(inbox.oldestUntriaged(2000)).toEqual({ receivedAt: 1002, needsTurn: false });
      expect(inbox.nextRelease(2000)).toBe(5000);
      const [first] = inbox.held(2000);
      if (!first) throw new Error("no held row");
      inbox.release(first.seq, {
        ...first.event,
        message: first.event.message && { ...first.event.message, text: "[已隐藏的凭据]" },
      });
      expect(inbox.untriaged(10, 2000).map((r) => r.event.message?.text)).toEqual(["[已隐藏的凭据]", "收到"]);
      // The other's wait ends unreleased: triaged as it came.
      expect(inbox.nextRelease(2000)).toBe(5001);
      expect(inbox.untriaged(10, 6000).map((r) => r.event.message?.text)).toEqual([
        "[已隐藏的凭据]",
        "ZK2291008",
        "收到",
      ]);
      expect(inbox.nextRelease(6000)).toBeNull();
    });
  });

  it("drops untriaged chatter, held or not, unread, and keeps a row owed a turn", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const inbox = new Inbox(storage.sql);
      const at = (text: string, eventId: string) => messageEvent({ chat: "qq:group:G1", text, eventId });
      inbox.accept(at("B7-0415", "E1"), false, 1000, 5000);
      inbox.accept(at("收到", "E2"), false, 1001);
      inbox.accept(at("@bot 在吗", "E3"), true, 1002);
      expect(inbox.dropChatter(2000)).toBe(2);
      expect(inbox.held(2000)).toEqual([]);
      expect(inbox.nextRelease(2000)).toBeNull();
      expect(inbox.untriaged(10, 6000).map((r) => r.event.eventId)).toEqual(["E3"]);
      const payloads = storage.sql.exec<{ n: number }>(
        "SELECT count(*) AS n FROM inbox WHERE payload IS NOT NULL",
      );
      expect(payloads.one().n).toBe(1);
      // Their dedupe records stay: a redelivery is still a duplicate.
      expect(inbox.accept(at("B7-0415", "E1"), false, 3000, 7000)).toBe(false);
    });
  });

  it("hands out open rows oldest first, with backoff and attempts, and closes them", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const inbox = new Inbox(storage.sql);
      inbox.accept(messageEvent({ chat: "qq:group:G1", text: "one", eventId: "E1" }), true, 1000);
      inbox.accept(messageEvent({ chat: "qq:group:G1", text: "two", eventId: "E2" }), true, 1001);
      for (const row of inbox.untriaged(10)) inbox.markTriaged(row.seq, true, 1002);
      const first = inbox.oldestOpen();
      expect(first).toMatchObject({ eventId: "E1", state: "pending", attempts: 0 });
      expect(first?.event.message?.text).toBe("one");
      if (!first) return;
      inbox.backOff(first.seq, 5000);
      expect(inbox.oldestOpen()).toMatchObject({ eventId: "E1", attempts: 1, notBefore: 5000 });
      inbox.setState(first.seq, "replying", 2000);
      expect(inbox.stateOf("E1")).toMatchObject({ state: "replying" });
      inbox.setState(first.seq, "done", 2000);
      expect(inbox.oldestOpen()).toMatchObject({ eventId: "E2" });
      expect(inbox.openCount()).toBe(1);
    });
  });

  it("keeps only a done dedupe record for an event without a turn, and prunes it after the retention", async ({
    expect,
  }) => {
    await inFreshChatObject((storage) => {
      const inbox = new Inbox(storage.sql);
      const chatter = messageEvent({
        chat: "qq:group:G1",
        text: "chatter",
        eventId: "E1",
        addressedToBot: false,
      });
      inbox.accept(chatter, false, 1000);
      const [row] = inbox.untriaged(10);
      if (!row) throw new Error("no untriaged row");
      expect(row.needsTurn).toBe(false);
      inbox.markTriaged(row.seq, false, 1000);
      expect(inbox.oldestOpen()).toBeNull();
      expect(inbox.stateOf("E1")).toMatchObject({ state: "done" });
      expect(storage.sql.exec("SELECT payload FROM inbox").one().payload).toBeNull();
      inbox.prune(1000 + DEDUPE_RETENTION_MS);
      expect(inbox.accept(chatter, false, 2000)).toBe(false);
      inbox.prune(1001 + DEDUPE_RETENTION_MS);
      expect(inbox.accept(chatter, false, 3000)).toBe(true);
    });
  });

  it("finds the oldest open row without walking the day's dedupe records", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const inbox = new Inbox(storage.sql);
      for (let i = 0; i < 300; i++) {
        const chatter = messageEvent({ chat: "qq:group:G1", text: "hi", id: `D${i}`, addressedToBot: false });
        inbox.accept(chatter, false, 1000 + i);
      }
      for (const row of inbox.untriaged(500)) inbox.markTriaged(row.seq, false, 2000);
      inbox.accept(
        messageEvent({ chat: "qq:group:G1", text: "open", id: "OPEN", eventId: "E-open" }),
        true,
        3000,
      );
      for (const row of inbox.untriaged(10)) inbox.markTriaged(row.seq, true, 3001);
      expect(inbox.oldestOpen()).toMatchObject({ eventId: "E-open", state: "pending" });
      const cursor = storage.sql.exec(OLDEST_OPEN_SQL);
      expect(cursor.toArray()).toHaveLength(1);
      expect(cursor.rowsRead).toBeLessThan(5);
      const plan = storage.sql.exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${OLDEST_OPEN_SQL}`).toArray();
      expect(plan.map((p) => p.detail).join(" ")).toContain("inbox_open");
    });
  });
});
