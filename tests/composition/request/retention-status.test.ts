// Own file: the retention run deletes messages of every chat, which every test of a file shares.
import { env } from "cloudflare:workers";
import { d1MessageLog } from "@src/composition/common/message-log-writer";
import { retentionStatus } from "@src/composition/request/retention-status";
import { loadSettings } from "@src/composition/settings/settings-loader";
import { outboundRecord } from "@src/domain/history/message-record";
import { runScheduled } from "@src/workers/scheduled";
import { describe, it } from "vitest";

const DAY = 86_400_000;

describe("retention status", () => {
  it("records each cron run and reports the oldest message kept per chat type", async ({ expect }) => {
    const now = Date.now();
    const group = `qq:group:R${crypto.randomUUID().slice(0, 8)}`;
    const row = (messageId: string, ageDays: number) =>
      outboundRecord({
        transport: "qq",
        chatKey: group,
        messageId,
        ts: now - ageDays * DAY,
        text: "x",
        botName: "b",
      });
    await d1MessageLog(env).flush({
      messages: [row("old", 91), row("kept", 80)],
      recalls: [],
      chats: [
        {
          chatKey: group,
          channel: "qq",
          targetType: "group",
          targetId: group.split(":")[2] ?? "",
          seenAt: now,
          followed: true,
        },
      ],
      usage: [],
      audit: [],
    });
    const before = await retentionStatus(env, await loadSettings(env));
    expect(before.lastRun).toBeNull();
    await runScheduled(env, now);
    const after = await retentionStatus(env, await loadSettings(env));
    expect(after.lastRun).toMatchObject({ at: now, complete: true });
    expect(after.lastRun?.deleted).toBeGreaterThanOrEqual(1);
    const left = await env.DB.prepare("SELECT message_id FROM messages WHERE chat_key = ?").bind(group).all();
    expect(left.results).toEqual([{ message_id: "kept" }]);
    const groups = after.byType.find((t) => t.targetType === "group");
    expect(groups?.days).toBe(90);
    // Nothing older than the group retention survives the run, and the kept row counts.
    expect(groups?.oldest).toBeGreaterThanOrEqual(now - 90 * DAY);
    expect(groups?.oldest).toBeLessThanOrEqual(now - 80 * DAY);
  });
});
