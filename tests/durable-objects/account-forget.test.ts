// A left-out person's past in one chat object (account-forget.ts): their log rows, their rows
// waiting for D1, their turns waiting for dreaming, their recent turns and their open reminders go; another account's,
// however alike its key, stay; a value that is no account key is refused before anything is touched.

import type { MessageRecord } from "@src/domain/history/message-record";
import { forgetAccountHere } from "@src/durable-objects/account-forget";
import { DreamJournal } from "@src/durable-objects/dream-journal";
import { Inbox } from "@src/durable-objects/inbox";
import { LocalLog } from "@src/durable-objects/local-log";
import { Outbox } from "@src/durable-objects/outbox";
import { RecentTurns } from "@src/durable-objects/recent-turns";
import { Reminders } from "@src/durable-objects/reminders";
import { describe, it } from "vitest";
import { messageEvent } from "../fakes/inbound";
import { inFreshChatObject } from "../support/chat-object";

const CHAT = "qq:group:G1";
const record = (account: string, id: string): MessageRecord => ({
  transport: "qq",
  chatKey: CHAT,
  messageId: id,
  ts: 1_000 + Number(id.slice(1)),
  userId: account.split(":")[2] ?? null,
  accountKey: account,
  nick: null,
  text: id,
  tokens: id,
  rawJson: null,
  direction: "in",
});

describe("forgetting an account in one chat object", () => {
  it("drops its log rows, unflushed rows, journal and recent turns, and only its own", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const sql = storage.sql;
      const log = new LocalLog(sql);
      const outbox = new Outbox(sql);
      const journal = new DreamJournal(sql);
      const recent = new RecentTurns(sql);
      const gone = "qq:user:%_";
      const kept = "qq:user:ab";
      for (const [account, id] of [
        [gone, "m1"],
        [kept, "m2"],
        [gone, "m3"],
      ] as const) {
        log.append(record(account, id));
        outbox.push({ kind: "message", body: record(account, `${id}0`) }, 1);
        sql.exec(
          "INSERT INTO dream_journal (role, name, account, text, ts) VALUES ('user', NULL, ?, ?, 1)",
          account,
          id,
        );
        recent.append({ role: "user", name: null, text: id, ts: 1 }, account);
        recent.append({ role: "assistant", name: null, text: `re ${id}`, ts: 1 }, null);
      }
      outbox.push(
        {
          kind: "observation",
          body: {
            account: gone,
            chatKey: CHAT,
            userId: "%_",
            unionKey: null,
            displayName: null,
            role: null,
            firstSeen: 1,
            lastSeen: 1,
          },
        } as never,
        1,
      );
      // Their chatter not triaged yet — a value held for its naming — would reach the log after
      // the forget; a row owed a turn is answered (and, left out, kept nowhere).
      const inbox = new Inbox(sql);
      // messageEvent's sender "%_" is the account `gone`, "ab" the account `kept`.
      const said = (sender: string, text: string, eventId: string) =>
        messageEvent({ chat: CHAT, text, eventId, sender });
      inbox.accept(said("%_", "B7-0415", "E1"), false, 1, 120_000);
      inbox.accept(said("ab", "C8-0516", "E2"), false, 2, 120_000);
      inbox.accept(said("%_", "在吗", "E3"), true, 3);
      // Their open reminder would say their words later; a sent one's text is already cleared.
      for (const [event, by, state] of [
        ["R1", gone, "open"],
        ["R2", kept, "open"],
        ["R3", gone, "sent"],
      ] as const)
        sql.exec(
          `INSERT INTO reminders (event_id, set_by, text, due_at, created_at, delivery, state, chat, transport)
           VALUES (?, ?, ?, 9, 1, 'push', ?, '{}', 'qq')`,
          event,
          by,
          state === "open" ? `${event} 的话` : "",
          state,
        );
      const reminders = new Reminders(storage);
      expect(forgetAccountHere({ sql, outbox, journal, recent, reminders }, gone)).toEqual({
        logged: 2,
        unflushed: 3,
        untriaged: 1,
        journal: 2,
        recent: 2,
        reminders: 1,
        home: "object",
      });
      expect(sql.exec("SELECT event_id, state, text FROM reminders ORDER BY id").toArray()).toEqual([
        { event_id: "R1", state: "cancelled", text: "" },
        { event_id: "R2", state: "open", text: "R2 的话" },
        { event_id: "R3", state: "sent", text: "" },
      ]);
      expect(inbox.untriaged(10, 200_000).map((r) => r.event.eventId)).toEqual(["E2", "E3"]);
      expect(log.count()).toBe(1);
      expect(outbox.size()).toBe(1);
      expect(outbox.take(10)?.batch.messages.map((m) => m.accountKey)).toEqual([kept]);
      expect(sql.exec("SELECT account FROM dream_journal").toArray()).toEqual([{ account: kept }]);
      // The bot's replies stay, as they do in the log.
      expect(recent.list(10).map((t) => t.text)).toEqual(["re m1", "m2", "re m2", "re m3"]);
      // A re-run finds nothing more.
      expect(forgetAccountHere({ sql, outbox, journal, recent, reminders }, gone)).toEqual({
        logged: 0,
        unflushed: 0,
        untriaged: 0,
        journal: 0,
        recent: 0,
        reminders: 0,
        home: "object",
      });
      for (const bad of ["", "qq:group:G1", "qq:user:a b", "%"])
        expect(() => forgetAccountHere({ sql, outbox, journal, recent, reminders }, bad), bad).toThrow(
          /not an account key/,
        );
      expect(log.count()).toBe(1);
      expect(recent.list(10)).toHaveLength(4);
    });
  });

  it("drops the user turns kept before turns named their account, which no one can attribute", async ({
    expect,
  }) => {
    await inFreshChatObject((storage) => {
      const sql = storage.sql;
      const recent = new RecentTurns(sql);
      // As a turn stored before the account column existed reads now.
      sql.exec("INSERT INTO recent_turns (role, name, text, ts) VALUES ('user', '阿明', 'old', 1)");
      recent.append({ role: "assistant", name: null, text: "old reply", ts: 2 }, null);
      recent.append({ role: "user", name: null, text: "other", ts: 3 }, "qq:user:other");
      const outcome = forgetAccountHere(
        {
          sql,
          outbox: new Outbox(sql),
          journal: new DreamJournal(sql),
          recent,
          reminders: new Reminders(storage),
        },
        "qq:user:gone",
      );
      expect(outcome.recent).toBe(1);
      expect(recent.list(10).map((t) => t.text)).toEqual(["old reply", "other"]);
    });
  });
});
