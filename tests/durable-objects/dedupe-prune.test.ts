// The chat object drops expired dedupe records at most once per ten minutes: the delete walks
// every done row, so running it after every drain would cost each message a scan. Until the
// next prune an expired record still dedupes; after it, a redelivery is a new event.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { DEDUPE_RETENTION_MS } from "@src/durable-objects/inbox";
import { describe, it, vi } from "vitest";
import { messageEvent } from "../fakes/inbound";

const TEN_MINUTES = 10 * 60 * 1000;

describe("ChatSession dedupe pruning", () => {
  it("keeps an expired record until ten minutes after the last prune, then drops it", async ({ expect }) => {
    const chat = `qq:group:PRUNE${crypto.randomUUID().replaceAll("-", "")}`;
    const stub = env.CHAT_SESSION.getByName(chat);
    const chatter = (id: string) => messageEvent({ chat, text: `随便聊聊 ${id}`, id, addressedToBot: false });
    /** Enqueues an unaddressed message, lets an alarm triage it, then ages its record past the retention. */
    const expired = async (id: string) => {
      expect((await stub.enqueue(chatter(id))).status).toBe("accepted");
      await runInDurableObject(stub, (_o: ChatSession, state) =>
        state.storage.setAlarm(Date.now() + 60 * 60 * 1000),
      );
      expect(await runDurableObjectAlarm(stub)).toBe(true);
      await runInDurableObject(stub, (_o: ChatSession, state) => {
        state.storage.sql.exec(
          "UPDATE inbox SET done_at = ? WHERE event_id = ?",
          Date.now() - DEDUPE_RETENTION_MS - 1,
          chatter(id).eventId,
        );
      });
    };
    const records = () =>
      runInDurableObject(stub, (_o: ChatSession, state) =>
        state.storage.sql
          .exec<{ event_id: string }>("SELECT event_id FROM inbox ORDER BY seq")
          .toArray()
          .map((r) => r.event_id),
      );
    const rearm = async () => {
      await runInDurableObject(stub, (_o: ChatSession, state) =>
        state.storage.setAlarm(Date.now() + 60 * 60 * 1000),
      );
      expect(await runDurableObjectAlarm(stub)).toBe(true);
    };

    // The alarm that triaged it re-armed (and pruned) already: within ten minutes of that,
    // an expired record is kept, and still dedupes.
    await expired("B");
    await rearm();
    expect(await records()).toEqual([chatter("B").eventId]);
    expect((await stub.enqueue(chatter("B"))).status).toBe("duplicate");

    // Ten minutes later the next re-arm drops it; a redelivery is then accepted as new.
    const later = Date.now() + TEN_MINUTES + 1000;
    vi.spyOn(Date, "now").mockImplementation(() => later);
    await rearm();
    expect(await records()).toEqual([]);
    expect((await stub.enqueue(chatter("B"))).status).toBe("accepted");
  });
});
