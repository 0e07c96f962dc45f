// Each chat's message log lives in its own object: inbound messages are written as they are
// triaged and replies as they are sent, in the object's SQLite, with the same full-text indexes
// as the D1 log; nothing of another chat, nothing while the chat's storage is off.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { chatKeyOf } from "@src/domain/chat/chat-address";
import { outboundRecord } from "@src/domain/history/message-record";
import { chatMatchExpression } from "@src/domain/text/chat-search-tokens";
import { logHomeOf } from "@src/durable-objects/chat-log-home";
import { ChatMeta } from "@src/durable-objects/chat-meta";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { keepInLog, LocalLog } from "@src/durable-objects/local-log";
import { appendToLog } from "@src/durable-objects/log-append";
import { describe, it } from "vitest";
import { resolvedSettings } from "../fakes/resolved-settings";
import { inFreshChatObject } from "../support/chat-object";
import { objectLogRows, objectWindowMatches } from "../support/object-log";
import { c2cBody, eventIdOf, postQq, sayInPrivate, turnDone } from "../support/qq-events";
import { eventually } from "../support/wait";

const record = (chatKey: string, id: string, text: string, ts = 1_000) =>
  outboundRecord({ transport: "qq", chatKey, messageId: id, ts, text, botName: "Akasha" });

describe("the chat's log in its object", () => {
  it("holds the message and the bot's reply of a turn, searchable by a two-character word", async ({
    expect,
  }) => {
    const user = `U${crypto.randomUUID().replaceAll("-", "")}`;
    const chat = `qq:private:${user}`;
    await sayInPrivate(user, "明天下午三点开会，记得提醒我");
    const rows = await eventually(async () => {
      const r = await objectLogRows(chat);
      return r.length === 2 ? r : undefined;
    });
    expect(rows.map((r) => r.direction)).toEqual(["in", "out"]);
    expect(rows[0]?.text).toBe("明天下午三点开会，记得提醒我");
    const hits = await objectWindowMatches(chat, chatMatchExpression(chat, "开会") ?? "");
    expect(hits).toContain(rows[0]?.seq);
  });

  it("starts a new object's log at home; an object from before the move reads D1 until migrated", async ({
    expect,
  }) => {
    await inFreshChatObject((storage) => expect(logHomeOf(storage.sql)).toBe("object"));
  });

  it("writes a message once however often it is written, and marks a recall", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const log = new LocalLog(storage.sql);
      const chat = "qq:group:G1";
      expect(log.append(record(chat, "m1", "第一条"))).toBe(true);
      expect(log.append(record(chat, "m1", "第一条"))).toBe(false);
      log.recall({ transport: "qq", chatKey: chat, messageId: "m1" });
      const rows = storage.sql.exec<{ recalled: number }>("SELECT recalled FROM messages").toArray();
      expect(rows).toEqual([{ recalled: 1 }]);
      // A recalled message has no turn window: no search finds it.
      expect(storage.sql.exec("SELECT count(*) AS n FROM message_windows").one().n).toBe(0);
    });
  });

  it("keeps only its own chat's rows: a message relayed to another chat is that chat's", async ({
    expect,
  }) => {
    await inFreshChatObject((storage) => {
      const log = new LocalLog(storage.sql);
      keepInLog(log, "qq:group:A", { kind: "message", body: record("qq:group:B", "r1", "转发去 B 的话") });
      keepInLog(log, null, { kind: "message", body: record("qq:group:A", "r2", "还不知道是哪个聊天") });
      keepInLog(log, "qq:group:A", { kind: "message", body: record("qq:group:A", "r3", "A 自己的话") });
      expect(log.count()).toBe(1);
      expect(storage.sql.exec("SELECT message_id FROM messages").one().message_id).toBe("r3");
    });
  });

  it("appends nothing while the chat's storage is switched off", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const log = new LocalLog(storage.sql);
      log.setStoreOff(true);
      expect(log.append(record("qq:group:A", "m1", "不该留下"))).toBe(false);
      log.setStoreOff(false);
      expect(log.append(record("qq:group:A", "m2", "可以留下"))).toBe(true);
      expect(log.count()).toBe(1);
    });
  });

  it("has the ACKed message in the log after the object is reset before its triage", async ({ expect }) => {
    const user = `U${crypto.randomUUID().replaceAll("-", "")}`;
    const chat = `qq:private:${user}`;
    const stub = env.CHAT_SESSION.getByName(chat);
    const body = c2cBody({ user, text: "断电之前说的话" });
    expect((await postQq(body)).status).toBe(200);
    // The object goes away right after the ACK: its in-memory state is lost, its storage is not.
    await runInDurableObject(stub, (_o: ChatSession, state) => state.abort("evicted in the test")).catch(
      () => {},
    );
    await turnDone(chat, eventIdOf(body), 20_000);
    const rows = await eventually(async () => {
      const r = await objectLogRows(chat);
      return r.some((m) => m.text === "断电之前说的话") ? r : undefined;
    });
    expect(rows.filter((m) => m.direction === "in")).toHaveLength(1);
  });

  it("takes messages from outside only for its own chat, masked, without a left-out person's", async ({
    expect,
  }) => {
    await inFreshChatObject((storage) => {
      const meta = new ChatMeta(storage.sql);
      const log = new LocalLog(storage.sql);
      const d = { storage, meta, log };
      const chat = chatKeyOf({ channel: "qq", targetType: "group", targetId: "G7" });
      const settings = resolvedSettings({ privacy: { doNotRecord: ["qq:user:GONE"] } });
      // A record of another chat refuses the whole call: nothing of it is written.
      expect(() =>
        appendToLog(
          d,
          chat,
          [record(chat, "a1", "本群的话"), record("qq:group:OTHER", "a2", "别的群的话")],
          settings,
        ),
      ).toThrow(/nothing written/);
      expect(log.count()).toBe(0);
      const secret = { ...record(chat, "a3", "密码是 hunter2xyz", 2_000), tokens: "未打码的令牌" };
      const leftOut = { ...record(chat, "a4", "被排除的人说的话", 3_000), accountKey: "qq:user:GONE" };
      expect(appendToLog(d, chat, [secret, leftOut], settings)).toEqual({
        added: 1,
        skipped: 1,
        home: "object",
      });
      const rows = storage.sql
        .exec<{ text: string; tokens: string }>("SELECT text, tokens FROM messages")
        .toArray();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.text).not.toContain("hunter2xyz");
      expect(rows[0]?.tokens).not.toContain("hunter2xyz");
      // The object now knows its chat: a call naming another chat is refused.
      expect(() => appendToLog(d, "qq:group:OTHER" as typeof chat, [], settings)).toThrow(/holds/);
    });
  });
});
