import type { AccountKey } from "@src/domain/chat/chat-address";
import type { MessageRecord } from "@src/domain/history/message-record";
import type { AccountObservation } from "@src/domain/identity/identity-directory";
import { Outbox } from "@src/durable-objects/outbox";
import { describe, it } from "vitest";
import { inFreshChatObject } from "../support/chat-object";

const touch = (seenAt: number, extra: { botPresent?: boolean; pushEnabled?: boolean } = {}) => ({
  chatKey: "qq:group:G1",
  channel: "qq",
  targetType: "group",
  targetId: "G1",
  seenAt,
  followed: true,
  ...extra,
});

const message = (id: string) =>
  ({ messageId: id, chatKey: "qq:group:G1", text: id }) as unknown as MessageRecord;

describe("Outbox", () => {
  it("takes the oldest rows as one batch, merging touches of one chat, and removes them only on request", async ({
    expect,
  }) => {
    await inFreshChatObject((storage) => {
      const outbox = new Outbox(storage.sql);
      outbox.push({ kind: "chat", body: touch(1, { botPresent: true }) }, 1);
      outbox.push({ kind: "message", body: message("M1") }, 2);
      outbox.push({ kind: "chat", body: touch(3) }, 3);
      outbox.push({ kind: "message", body: message("M2") }, 4);
      expect(outbox.size()).toBe(4);
      const taken = outbox.take(10);
      expect(taken?.rows).toBe(4);
      expect(taken?.batch.messages.map((m) => m.messageId)).toEqual(["M1", "M2"]);
      // One upsert for the chat: the latest sighting, the flag an earlier touch carried kept.
      expect(taken?.batch.chats).toEqual([{ ...touch(3), botPresent: true }]);
      expect(outbox.size()).toBe(4);
      outbox.remove(taken?.upTo ?? 0);
      expect(outbox.size()).toBe(0);
      expect(outbox.take(10)).toBeNull();
    });
  });

  it("takes at most `limit` rows, leaving the rest for the next batch", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const outbox = new Outbox(storage.sql);
      for (const id of ["M1", "M2", "M3"]) outbox.push({ kind: "message", body: message(id) }, 1);
      const first = outbox.take(2);
      expect(first?.batch.messages.map((m) => m.messageId)).toEqual(["M1", "M2"]);
      outbox.remove(first?.upTo ?? 0);
      expect(outbox.take(2)?.batch.messages.map((m) => m.messageId)).toEqual(["M3"]);
    });
  });

  it("merges observations of one account in one chat into one", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const outbox = new Outbox(storage.sql);
      const seen = (at: number, displayName: string): AccountObservation => ({
        account: "qq:user:U1" as AccountKey,
        chatKey: "qq:group:G1",
        userId: "U1",
        unionKey: null,
        displayName,
        role: null,
        firstSeen: at,
        lastSeen: at,
      });
      outbox.push({ kind: "observation", body: seen(1, "A") }, 1);
      outbox.push({ kind: "observation", body: seen(2, "B") }, 2);
      outbox.push({ kind: "observation", body: { ...seen(3, "C"), chatKey: "qq:group:G2" } }, 3);
      const observations = outbox.take(10)?.batch.observations ?? [];
      expect(observations.map((o) => [o.chatKey, o.firstSeen, o.lastSeen])).toEqual([
        ["qq:group:G1", 1, 2],
        ["qq:group:G2", 3, 3],
      ]);
    });
  });

  it("answers its size from memory, exact after every change and never low after a rolled-back push", async ({
    expect,
  }) => {
    await inFreshChatObject((storage) => {
      const statements: string[] = [];
      const sql = {
        exec: (query: string, ...bindings: unknown[]) => {
          statements.push(query);
          return storage.sql.exec(query, ...bindings);
        },
      } as unknown as SqlStorage;
      const outbox = new Outbox(sql);
      const counted = () => storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM outbox").one().n;
      expect(outbox.size()).toBe(0);
      outbox.push({ kind: "message", body: message("M1") }, 1);
      outbox.push({ kind: "message", body: message("M2") }, 2);
      statements.length = 0;
      expect(outbox.size()).toBe(2);
      expect(outbox.size()).toBe(counted());
      // The drain asks after every turn: no statement for it.
      expect(statements).toEqual([]);
      expect(() =>
        storage.transactionSync(() => {
          outbox.push({ kind: "message", body: message("M3") }, 3);
          throw new Error("rolled back");
        }),
      ).toThrow("rolled back");
      expect(counted()).toBe(2);
      expect(outbox.size()).toBeGreaterThanOrEqual(counted());
      const taken = outbox.take(10);
      expect(taken?.rows).toBe(2);
      outbox.remove(taken?.upTo ?? 0);
      expect(outbox.size()).toBe(0);
      expect(outbox.take(10)).toBeNull();
      outbox.push({ kind: "message", body: message("M4") }, 4);
      outbox.push({ kind: "usage", body: { dedupeKey: "u1" } as never }, 5);
      expect(outbox.size()).toBe(2);
      expect(outbox.dropContent()).toBe(1);
      expect(outbox.size()).toBe(1);
      expect(outbox.size()).toBe(counted());
    });
  });

  it("rewrites waiting rows in place, in order, and carries a rewrite of a logged message as its own row", async ({
    expect,
  }) => {
    await inFreshChatObject((storage) => {
      const outbox = new Outbox(storage.sql);
      for (const id of ["M1", "secret-M2", "M3"]) outbox.push({ kind: "message", body: message(id) }, 1);
      const rewrite = {
        transport: "qq",
        chatKey: "qq:group:G1",
        messageId: "M0",
        ts: 1,
        text: "x",
        tokens: "x",
        rawJson: null,
      };
      outbox.push({ kind: "rewrite", body: rewrite }, 2);
      const changed = outbox.rewrite((item) =>
        item.kind === "message" && item.body.text.startsWith("secret")
          ? { kind: "message", body: { ...item.body, text: "[已隐藏的凭据]" } }
          : item,
      );
      expect(changed).toBe(1);
      const taken = outbox.take(10);
      expect(taken?.batch.messages.map((m) => m.text)).toEqual(["M1", "[已隐藏的凭据]", "M3"]);
      expect(taken?.batch.rewrites).toEqual([rewrite]);
      // A forget drops a waiting rewrite with the messages it rewrites.
      expect(outbox.dropContent()).toBe(4);
    });
  });
});
