import { describe, it } from "vitest";
import { DEDUPE_RETENTION_MS, Inbox } from "../../src/durable-objects/inbox";
import { messageEvent } from "../fakes/inbound";
import { inFreshChatObject } from "../support/chat-object";

describe("Inbox", () => {
  it("knows an accepted event by its event id and by its message id", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const inbox = new Inbox(storage.sql);
      const event = messageEvent({ chat: "qq:group:G1", text: "hi", id: "M1", eventId: "E1" });
      expect(inbox.has("E1", "M1")).toBe(false);
      inbox.add(event, true, 1000);
      expect(inbox.has("E1", null)).toBe(true);
      expect(inbox.has("E-other", "M1")).toBe(true);
      expect(inbox.has("E-other", "M-other")).toBe(false);
    });
  });

  it("hands out open rows oldest first, with backoff and attempts, and closes them", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const inbox = new Inbox(storage.sql);
      inbox.add(messageEvent({ chat: "qq:group:G1", text: "one", eventId: "E1" }), true, 1000);
      inbox.add(messageEvent({ chat: "qq:group:G1", text: "two", eventId: "E2" }), true, 1001);
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
      inbox.add(
        messageEvent({ chat: "qq:group:G1", text: "chatter", eventId: "E1", addressedToBot: false }),
        false,
        1000,
      );
      expect(inbox.oldestOpen()).toBeNull();
      expect(inbox.stateOf("E1")).toMatchObject({ state: "done" });
      inbox.prune(1000 + DEDUPE_RETENTION_MS);
      expect(inbox.has("E1", null)).toBe(true);
      inbox.prune(1001 + DEDUPE_RETENTION_MS);
      expect(inbox.has("E1", null)).toBe(false);
    });
  });
});
