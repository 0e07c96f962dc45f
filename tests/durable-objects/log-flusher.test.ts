import { DEFAULT_SETTINGS, type Settings } from "@src/domain/config/settings";
import type { FlushBatch, MessageLog } from "@src/domain/history/message-log";
import type { MessageRecord } from "@src/domain/history/message-record";
import { silentLogger } from "@src/domain/kernel/logger";
import { LogFlusher } from "@src/durable-objects/log-flusher";
import { Outbox } from "@src/durable-objects/outbox";
import { describe, it } from "vitest";
import { inFreshChatObject } from "../support/chat-object";

const settings: Settings = { ...DEFAULT_SETTINGS, outbox: { flushIntervalMs: 1000, flushBatchRows: 2 } };
const message = (id: string) =>
  ({ messageId: id, chatKey: "qq:group:G1", text: id }) as unknown as MessageRecord;

/** A message log that fails the first `failures` flushes, as D1 does during an outage. */
class FlakyLog implements MessageLog {
  readonly written: FlushBatch[] = [];
  constructor(private failures: number) {}
  async flush(batch: FlushBatch): Promise<void> {
    if (this.failures-- > 0) throw new Error("D1_ERROR: simulated outage");
    this.written.push(batch);
  }
}

/** An outbox in a fresh chat object and a flusher writing it to a log that fails `failures` times. */
const withFlusher = (
  failures: number,
  fn: (parts: { outbox: Outbox; log: FlakyLog; flusher: LogFlusher }) => Promise<void>,
) =>
  inFreshChatObject(async (storage) => {
    const outbox = new Outbox(storage.sql);
    const log = new FlakyLog(failures);
    const flusher = new LogFlusher({ outbox, log: () => log, logger: () => silentLogger });
    await fn({ outbox, log, flusher });
  });

describe("LogFlusher", () => {
  it("writes the outbox in batches of flushBatchRows and empties it", async ({ expect }) => {
    await withFlusher(0, async ({ outbox, log, flusher }) => {
      for (const id of ["M1", "M2", "M3"]) outbox.push({ kind: "message", body: message(id) }, 1);
      expect(flusher.due(settings, Date.now())).toBe(true);
      await flusher.flush(settings);
      expect(log.written.map((b) => b.messages.map((m) => m.messageId))).toEqual([["M1", "M2"], ["M3"]]);
      expect(outbox.size()).toBe(0);
      expect(flusher.nextAt(settings, Date.now())).toBeNull();
    });
  });

  it("keeps every row when a flush fails, backs off, and loses nothing on the retry", async ({ expect }) => {
    await withFlusher(1, async ({ outbox, log, flusher }) => {
      outbox.push({ kind: "message", body: message("M1") }, 1);
      await flusher.flush(settings);
      expect(flusher.failures).toBe(1);
      expect(outbox.size()).toBe(1);
      const now = Date.now();
      // A failed flush is due at once, and the next alarm waits out the backoff.
      expect(flusher.due(settings, now)).toBe(true);
      expect(flusher.nextAt(settings, now)).toBeGreaterThanOrEqual(now + 2000);
      await flusher.flush(settings);
      expect(flusher.failures).toBe(0);
      expect(log.written.flatMap((b) => b.messages.map((m) => m.messageId))).toEqual(["M1"]);
      expect(outbox.size()).toBe(0);
    });
  });

  it("waits for the window after a flush unless the batch is full", async ({ expect }) => {
    await withFlusher(0, async ({ outbox, flusher }) => {
      outbox.push({ kind: "message", body: message("M1") }, 1);
      await flusher.flush(settings);
      const now = Date.now();
      outbox.push({ kind: "message", body: message("M2") }, now);
      expect(flusher.due(settings, now)).toBe(false);
      expect(flusher.windowEnd(settings, now)).toBeGreaterThan(now);
      outbox.push({ kind: "message", body: message("M3") }, now);
      expect(flusher.due(settings, now)).toBe(true);
    });
  });
});
