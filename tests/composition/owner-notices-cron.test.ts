// The cron's notices: a OneBot backfill whose pages fail makes one notice per group whose count
// grows run after run, without the platform's words (which may quote anything); a run that throws
// makes one for the run; the owner hears once, in private, and what is raised within the interval
// waits for the next message, which the sweep sends once the interval has passed.
import { env } from "cloudflare:workers";
import { D1OwnerNotices } from "@src/adapters/d1/d1-owner-notices";
import { OneBotHistoryClient } from "@src/adapters/onebot/onebot-history-client";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import { chatObject } from "@src/composition/common/chat-stub";
import { ownerNotices } from "@src/composition/common/owner-notices";
import { backfillJob, backfillWithNotices } from "@src/composition/cron/onebot-backfill-job";
import type { ChatKey } from "@src/domain/chat/chat-address";
import { silentLogger } from "@src/domain/kernel/logger";
import { type NoticeDeps, tellOwner } from "@src/domain/notices/notice-book";
import { noticePolicy } from "@src/domain/notices/notice-policy";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { FakeOneBotHistory } from "../fakes/fake-onebot-history";
import { resolvedSettings } from "../fakes/resolved-settings";
import { RecordingPushes, sayOneBot } from "../support/reminders";
import { storedSettings } from "../support/stored-settings";
import { eventually } from "../support/wait";

const SECRET = "sk-live-9f8e7d6c5b4a3f2e1d0c";
const user = () => 100_000 + Math.floor(Math.random() * 800_000_000);
let pushes: RecordingPushes;

const client = (fake: FakeOneBotHistory) =>
  new OneBotHistoryClient({ apiBase: "http://onebot.test/", accessToken: "obtoken", fetch: fake.fetch });

const rows = async () =>
  (await env.DB.prepare("SELECT * FROM owner_notices ORDER BY id").all<Record<string, unknown>>()).results;
const toOwner = () => pushes.sent.filter((s) => s.reply === "none");

beforeEach(async () => {
  pushes = new RecordingPushes();
  const real = chatObjectServices.create.bind(chatObjectServices);
  vi.spyOn(chatObjectServices, "create").mockImplementation((e) => ({ ...real(e), outbound: () => pushes }));
  await env.DB.prepare("DELETE FROM owner_notices").run();
});

/**
 * Settings stored with `owner` (a OneBot user) as the admin, beside `more`, and the notices
 * under them; the owner has said /ping in private, so the bot has a chat to tell them in.
 */
async function ownerNotified(owner: number, more: Record<string, unknown> = {}) {
  const layer = { identity: { admins: [`onebot:user:${owner}`] }, ...more };
  await storedSettings(env).write(JSON.stringify(layer), null, Date.now());
  const settings = resolvedSettings(layer);
  await sayOneBot({ user: owner, text: "/ping" });
  return { settings, notices: ownerNotices(env, async () => settings, silentLogger) };
}

describe("backfill notices", () => {
  it("one notice per failing group, counted over runs, told once in private, no upstream words", async () => {
    const owner = user();
    const group = user();
    const chat = `onebot:group:${group}`;
    const { settings, notices } = await ownerNotified(owner, { follow: { groups: [chat] } });
    const fake = new FakeOneBotHistory();
    fake.add(group, []);
    for (let run = 0; run < 3; run++) {
      fake.failures.push({ retcode: 1400, wording: `群里有人说了密码 ${SECRET}` });
      const report = await backfillWithNotices(() => backfillJob(env, settings, client(fake)), notices);
      expect(report.failed).toEqual([{ chatKey: chat, cause: expect.any(String) }]);
    }
    const [row, ...more] = await rows();
    expect(more).toEqual([]);
    expect(row).toMatchObject({ kind: "backfill-failed", subject: chat, count: 3 });
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(JSON.stringify(row)).not.toContain("密码");
    const told = await eventually(async () => (toOwner().length > 0 ? toOwner() : undefined), 15_000);
    expect(told).toEqual([
      {
        chat: `onebot:private:${owner}`,
        text: expect.stringContaining(`群 ${chat} 的 OneBot 历史补全失败`),
        reply: "none",
      },
    ]);
    expect(told[0]?.text).not.toContain(SECRET);
  });

  it("a run that throws makes a notice for the run; raised within the interval it waits for the sweep", async () => {
    const owner = user();
    const { settings, notices } = await ownerNotified(owner);
    await notices.raise({
      kind: "spend-cap",
      scope: "global",
      chatKey: "qq:group:G1",
      used: 9,
      cap: 9,
      day: "2026-12-04",
    });
    await eventually(async () => toOwner().length === 1, 15_000);
    await expect(
      backfillWithNotices(
        () => Promise.reject(new Error(`fetch http://onebot.test/?access_token=${SECRET}`)),
        notices,
      ),
    ).rejects.toThrow();
    const run = (await rows()).find((r) => r.kind === "backfill-failed");
    expect(run).toMatchObject({ subject: "run", notified_at: null });
    expect(JSON.stringify(run)).not.toContain(SECRET);
    // Within the interval the sweep sends nothing; past it, one message with the waiting notice.
    expect(await notices.tellOwner()).toBe(0);
    const home = `onebot:private:${owner}` as ChatKey;
    const deps: NoticeDeps = {
      book: new D1OwnerNotices(env.DB),
      policy: noticePolicy(settings.notices),
      ownerChats: async () => [home],
      handOver: (c, n) => chatObject(env, c).deliverNotice(c, n),
      logger: silentLogger,
    };
    const later = Date.now() + settings.notices.minIntervalMinutes * 60_000;
    expect(await tellOwner(later, deps)).toBe(1);
    await eventually(async () => toOwner().length === 2, 15_000);
    expect(toOwner()[1]?.text).toContain("OneBot 历史补全失败（threw）");
    expect(await tellOwner(later + 10 * 60 * 60_000, deps)).toBe(0);
  });
});
