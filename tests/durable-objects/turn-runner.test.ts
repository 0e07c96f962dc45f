// The chat object's turn steps over its real SQLite storage, with fakes for the model and the
// platform. A "restart" is a new TurnRunner over the same storage, as after an evicted object.

import type { ChatObjectServices } from "@src/composition/chat-object/chat-object-services";
import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { FOLLOW_NOTICE } from "@src/domain/agent/follow-notice";
import type { Outbound, OutboundMessage } from "@src/domain/agent/outbound";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import type { InboundEvent } from "@src/domain/inbound/inbound-event";
import { ok } from "@src/domain/kernel/result";
import { ChatMeta } from "@src/durable-objects/chat-meta";
import { DreamJournal } from "@src/durable-objects/dream-journal";
import { Inbox } from "@src/durable-objects/inbox";
import { Outbox } from "@src/durable-objects/outbox";
import { RecentTurns } from "@src/durable-objects/recent-turns";
import { Reminders } from "@src/durable-objects/reminders";
import { ReplyPlan } from "@src/durable-objects/reply-plan";
import { TurnRunner } from "@src/durable-objects/turn-runner";
import { describe, it } from "vitest";
import { messageEvent } from "../fakes/inbound";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { turnPorts } from "../fakes/turn-ports";
import { inFreshChatObject } from "../support/chat-object";
import { addTriaged } from "../support/inbox-rows";

/** Records every send; `dieOn` makes the send of that text throw, like an alarm that dies there. */
class PlatformFake implements Outbound {
  readonly sent: string[] = [];
  constructor(private readonly dieOn: string | null = null) {}
  async send(message: OutboundMessage) {
    if (message.text === this.dieOn) throw new Error("isolate went away mid-turn");
    this.sent.push(message.text);
    return ok({ messageId: `OUT-${this.sent.length}`, ts: Date.now(), duplicate: false });
  }
}

function runner(storage: DurableObjectStorage, outbound: Outbound, model = new ScriptedChatModel([])) {
  const sql = storage.sql;
  const ports = turnPorts({ model });
  const deps = {
    ...ports,
    outbound: () => outbound,
    registry: defaultTurnRegistry(),
    botName: "Akasha",
    spendLedger: { spent: async () => ({ chat: 0, global: 0 }) },
  } as unknown as ChatObjectServices & typeof ports;
  const parts = {
    inbox: new Inbox(sql),
    outbox: new Outbox(sql),
    replies: new ReplyPlan(sql),
    recent: new RecentTurns(sql),
    journal: new DreamJournal(sql),
    meta: new ChatMeta(sql),
    reminders: new Reminders(storage),
  };
  const turns = new TurnRunner({ storage, ...parts, services: () => deps });
  return { turns, model, ...parts };
}

function accept(storage: DurableObjectStorage, event: InboundEvent) {
  addTriaged(new Inbox(storage.sql), event, true, Date.now());
}

const outboundRows = (outbox: Outbox) =>
  (outbox.take(100)?.batch.messages ?? []).filter((m) => m.direction === "out").map((m) => m.text);

describe("TurnRunner", () => {
  it("tells an unfollowed group once how an admin turns memory on; a followed group never", async ({
    expect,
  }) => {
    await inFreshChatObject(async (storage) => {
      const platform = new PlatformFake();
      const r = runner(
        storage,
        platform,
        new ScriptedChatModel([{ text: "一" }, { text: "二" }, { text: "三" }]),
      );
      const unfollowed = { ...DEFAULT_SETTINGS, follow: { groups: [] } };
      for (const text of ["你好", "/ping", "再问一次"]) {
        accept(storage, messageEvent({ chat: "qq:group:NEW", text }));
        const row = r.inbox.oldestOpen();
        if (!row) throw new Error("no open row");
        expect(await r.turns.advance(row, unfollowed)).toBe(true);
      }
      expect(platform.sent).toEqual(["一", FOLLOW_NOTICE, "pong", "二"]);
      // Not kept: the notice is no log row either.
      expect(outboundRows(r.outbox)).toEqual([]);
    });
    await inFreshChatObject(async (storage) => {
      const platform = new PlatformFake();
      const r = runner(storage, platform, new ScriptedChatModel([{ text: "一" }]));
      accept(storage, messageEvent({ chat: "qq:group:KEPT", text: "你好" }));
      const row = r.inbox.oldestOpen();
      if (!row) throw new Error("no open row");
      await r.turns.advance(row, { ...DEFAULT_SETTINGS, follow: { groups: ["qq:group:KEPT"] } });
      expect(platform.sent).toEqual(["一"]);
    });
  });

  it("runs a turn, sends its reply once, logs it and closes the row", async ({ expect }) => {
    await inFreshChatObject(async (storage) => {
      accept(storage, messageEvent({ chat: "qq:private:U1", text: "你好" }));
      const platform = new PlatformFake();
      const r = runner(storage, platform, new ScriptedChatModel([{ text: "你好呀" }]));
      const row = r.inbox.oldestOpen();
      if (!row) throw new Error("no open row");
      expect(await r.turns.advance(row, DEFAULT_SETTINGS)).toBe(true);
      expect(platform.sent).toEqual(["你好呀"]);
      expect(r.model.requests).toHaveLength(1);
      expect(r.inbox.oldestOpen()).toBeNull();
      expect(r.replies.list(row.seq).map((p) => p.state)).toEqual(["sent"]);
      expect(outboundRows(r.outbox)).toEqual(["你好呀"]);
    });
  });

  it("an alarm that dies after the plan was saved is retried without a second model call or reply", async ({
    expect,
  }) => {
    await inFreshChatObject(async (storage) => {
      accept(storage, messageEvent({ chat: "qq:private:U1", text: "在吗" }));
      const dying = new PlatformFake("在的");
      const first = runner(storage, dying, new ScriptedChatModel([{ text: "在的" }]));
      const row = first.inbox.oldestOpen();
      if (!row) throw new Error("no open row");
      // The model answered and the plan was saved; then the send died.
      expect(await first.turns.advance(row, DEFAULT_SETTINGS)).toBe(false);
      expect(first.inbox.stateOf(row.eventId)?.state).toBe("replying");

      const platform = new PlatformFake();
      const second = runner(storage, platform, new ScriptedChatModel([{ text: "不该再问模型" }]));
      const retried = second.inbox.oldestOpen();
      if (!retried) throw new Error("the row was lost");
      expect(await second.turns.advance(retried, DEFAULT_SETTINGS)).toBe(true);
      expect(second.model.requests).toHaveLength(0);
      expect([...dying.sent, ...platform.sent]).toEqual(["在的"]);
      expect(outboundRows(second.outbox)).toEqual(["在的"]);
    });
  });

  it("an alarm that dies between two replies sends only the missing one when retried", async ({ expect }) => {
    await inFreshChatObject(async (storage) => {
      accept(storage, messageEvent({ chat: "qq:private:U1", text: "讲两句" }));
      const inbox = new Inbox(storage.sql);
      const row = inbox.oldestOpen();
      if (!row) throw new Error("no open row");
      // A decided turn with two replies, as the decide step leaves it.
      new ReplyPlan(storage.sql).plan(row.seq, ["第一句", "第二句"]);
      inbox.setState(row.seq, "replying", Date.now());

      const dying = new PlatformFake("第二句");
      const first = runner(storage, dying);
      expect(await first.turns.advance({ ...row, state: "replying" }, DEFAULT_SETTINGS)).toBe(false);
      expect(dying.sent).toEqual(["第一句"]);

      const platform = new PlatformFake();
      const second = runner(storage, platform);
      const retried = second.inbox.oldestOpen();
      if (!retried) throw new Error("the row was lost");
      expect(await second.turns.advance(retried, DEFAULT_SETTINGS)).toBe(true);
      expect(platform.sent).toEqual(["第二句"]);
      expect(second.replies.list(row.seq).map((p) => p.state)).toEqual(["sent", "sent"]);
      expect(outboundRows(second.outbox)).toEqual(["第一句", "第二句"]);
      expect(second.inbox.oldestOpen()).toBeNull();
    });
  });

  it("a turn whose step keeps throwing is given up, so one bad event cannot block its chat", async ({
    expect,
  }) => {
    await inFreshChatObject(async (storage) => {
      accept(storage, messageEvent({ chat: "qq:private:U1", text: "坏消息" }));
      const r = runner(storage, new PlatformFake(), new ScriptedChatModel([]));
      const broken = new ScriptedChatModel([]);
      broken.complete = async () => {
        throw new Error("adapter bug");
      };
      const b = runner(storage, new PlatformFake(), broken);
      let outcome = false;
      for (let attempt = 0; attempt < 3; attempt++) {
        const row = r.inbox.oldestOpen();
        if (!row) break;
        outcome = await b.turns.advance(row, DEFAULT_SETTINGS);
      }
      expect(outcome).toBe(true);
      expect(r.inbox.oldestOpen()).toBeNull();
    });
  });
});
