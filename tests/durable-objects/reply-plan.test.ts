import { Inbox } from "@src/durable-objects/inbox";
import { ReplyPlan } from "@src/durable-objects/reply-plan";
import { describe, it } from "vitest";
import { messageEvent } from "../fakes/inbound";
import { inFreshChatObject } from "../support/chat-object";
import { addTriaged } from "../support/inbox-rows";

describe("ReplyPlan", () => {
  it("plans replies once, in order, and records each send outcome", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const replies = new ReplyPlan(storage.sql);
      replies.plan(7, ["一", "二", "三"]);
      // Planning again (a retried transaction) changes nothing.
      replies.plan(7, ["other", "texts"]);
      replies.markSent(7, 0, "MSG-1", 100);
      replies.markAttempt(7, 1, "timeout");
      replies.markFailed(7, 2, "rejected");
      expect(replies.list(7)).toEqual([
        { idx: 0, text: "一", state: "sent", attempts: 1, messageId: "MSG-1", held: false },
        { idx: 1, text: "二", state: "planned", attempts: 1, messageId: null, held: false },
        { idx: 2, text: "三", state: "failed", attempts: 1, messageId: null, held: false },
      ]);
    });
  });

  it("keeps whether the turn held words that must stay in the chat, for the log row of each send", async ({
    expect,
  }) => {
    await inFreshChatObject((storage) => {
      const replies = new ReplyPlan(storage.sql);
      replies.plan(8, ["一", "二"], true);
      expect(replies.list(8).map((r) => r.held)).toEqual([true, true]);
    });
  });

  it("drops plans whose inbox row is gone", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const inbox = new Inbox(storage.sql);
      addTriaged(inbox, messageEvent({ chat: "qq:group:G1", text: "hi", eventId: "E1" }), true, 1);
      const seq = inbox.oldestOpen()?.seq ?? -1;
      const replies = new ReplyPlan(storage.sql);
      replies.plan(seq, ["kept"]);
      replies.plan(seq + 1000, ["orphan"]);
      replies.pruneOrphans();
      expect(replies.list(seq).map((r) => r.text)).toEqual(["kept"]);
      expect(replies.list(seq + 1000)).toEqual([]);
    });
  });
});
