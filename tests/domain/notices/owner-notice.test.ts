// Notices to the owner are built from facts, never from free text: whatever a model error's
// message, a provider name or a "chat key" carries — a user's words, a key, a private chat's
// text — the notice holds only counts, typed chat keys, days and plain error classes. Then the
// dedupe and threshold rules, and who the owner's chats are (only private chats, never a group).

import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import {
  countOccurrence,
  mayNotify,
  type NoticeCount,
  type NoticePolicy,
  noticePolicy,
} from "@src/domain/notices/notice-policy";
import { ownerPrivateChats } from "@src/domain/notices/owner-chats";
import { type NoticeFacts, noticeSubject, noticeText, ownerMessage } from "@src/domain/notices/owner-notice";
import { describe, expect, it } from "vitest";

const SECRET = "sk-live-9f8e7d6c5b4a3f2e1d0c";
const SAID = "我其实偷偷喜欢隔壁的小红";

describe("a notice says only operational facts", () => {
  const hostile: NoticeFacts[] = [
    { kind: "model-errors", provider: `openai ${SECRET}`, errorKind: `bad-response: ${SAID}` },
    { kind: "model-errors", provider: "workers-ai", errorKind: `${SAID} api_key=${SECRET}` },
    { kind: "backfill-failed", chatKey: `onebot:group:1 ${SAID}`, cause: `token ${SECRET}` },
    { kind: "backfill-failed", chatKey: `${SAID}`, cause: "http" },
    { kind: "spend-cap", scope: "chat", chatKey: `qq:private:${SECRET} ${SAID}`, used: 5, cap: 4, day: SAID },
    {
      kind: "spend-cap",
      scope: "global",
      chatKey: SAID,
      used: Number.NaN,
      cap: 4,
      day: `2026-12-04${SECRET}`,
    },
  ];
  it.each(hostile.map((f) => [f.kind, f] as const))(
    "%s: no user text, no key in text, subject or message",
    (_k, facts) => {
      const text = noticeText(facts, 7);
      const said = [text, noticeSubject(facts), ownerMessage([{ id: 1, text }])].join("\n");
      expect(said).not.toContain(SECRET);
      expect(said).not.toContain("sk-live");
      expect(said).not.toContain("小红");
      expect(said).not.toContain("偷偷");
      expect(said).not.toMatch(/api_key|token /);
    },
  );

  it("names what happened in Chinese, with the typed chat key, counts and day", () => {
    expect(
      noticeText(
        {
          kind: "spend-cap",
          scope: "chat",
          chatKey: "qq:group:G1",
          used: 410_000,
          cap: 400_000,
          day: "2026-12-04",
        },
        1,
      ),
    ).toBe(
      "会话 qq:group:G1 2026-12-04 的用量已达每日上限（已用 410000 / 上限 400000 tokens），该会话的模型回答暂停到明天；可在设置 spend.chatDailyTokens 调整。",
    );
    expect(noticeText({ kind: "model-errors", provider: "workers-ai", errorKind: "timeout" }, 5)).toContain(
      "模型服务 workers-ai 反复出错（timeout），已累计 5 次",
    );
    expect(noticeText({ kind: "backfill-failed", chatKey: "onebot:group:123", cause: "http" }, 2)).toContain(
      "群 onebot:group:123 的 OneBot 历史补全失败（http），共 2 次",
    );
  });

  it("dedupes by kind and subject: one per chat and day for caps, one per provider and error class", () => {
    const cap = (chatKey: string, day: string): NoticeFacts => ({
      kind: "spend-cap",
      scope: "chat",
      chatKey,
      used: 1,
      cap: 1,
      day,
    });
    expect(noticeSubject(cap("qq:group:G1", "2026-12-04"))).toBe(
      noticeSubject(cap("qq:group:G1", "2026-12-04")),
    );
    expect(noticeSubject(cap("qq:group:G1", "2026-12-04"))).not.toBe(
      noticeSubject(cap("qq:group:G2", "2026-12-04")),
    );
    expect(noticeSubject(cap("qq:group:G1", "2026-12-04"))).not.toBe(
      noticeSubject(cap("qq:group:G1", "2026-12-05")),
    );
    expect(noticeSubject({ kind: "model-errors", provider: "workers-ai", errorKind: "timeout" })).toBe(
      "workers-ai:timeout",
    );
  });
});

const policy: NoticePolicy = noticePolicy({ modelErrors: 3, windowMinutes: 10, minIntervalMinutes: 5 });
const MIN = 60_000;

describe("counting occurrences", () => {
  it("raises a model-errors notice at the threshold within the window, and counts on after", () => {
    let n: NoticeCount | null = null;
    n = countOccurrence(n, 0, "model-errors", policy);
    n = countOccurrence(n, 1 * MIN, "model-errors", policy);
    expect(n.raisedAt).toBeNull();
    n = countOccurrence(n, 2 * MIN, "model-errors", policy);
    expect(n).toMatchObject({ raisedAt: 2 * MIN, count: 3, firstSeen: 0 });
    n = countOccurrence(n, 60 * MIN, "model-errors", policy);
    expect(n).toMatchObject({ raisedAt: 2 * MIN, count: 4, lastSeen: 60 * MIN });
  });

  it("starts a new window when errors are spread out, so scattered failures never raise", () => {
    let n: NoticeCount | null = null;
    for (let i = 0; i < 10; i++) n = countOccurrence(n, i * 11 * MIN, "model-errors", policy);
    expect(n).toMatchObject({ raisedAt: null, count: 1 });
  });

  it("raises a spend cap or a backfill failure at the first occurrence", () => {
    expect(countOccurrence(null, 5, "spend-cap", policy).raisedAt).toBe(5);
    expect(countOccurrence(null, 5, "backfill-failed", policy).raisedAt).toBe(5);
  });

  it("spaces messages to the owner by the interval", () => {
    expect(mayNotify(null, 0, policy)).toBe(true);
    expect(mayNotify(0, 4 * MIN, policy)).toBe(false);
    expect(mayNotify(0, 5 * MIN, policy)).toBe(true);
  });
});

describe("the owner's chats", () => {
  const identity = (admins: string[], people: { id: string; accounts: string[] }[] = []) => ({
    ...DEFAULT_SETTINGS.identity,
    admins,
    people: people.map((p) => ({ ...p, displayName: p.id })),
  });

  it("are the admins' own private chats, persons expanded, never a group", () => {
    const chats = ownerPrivateChats(
      identity(
        ["onebot:user:10001", "person:owner"],
        [{ id: "owner", accounts: ["qq:user:OPENID1", "qq:user:OPENID2"] }],
      ) as never,
    );
    expect(chats).toEqual(["onebot:private:10001", "qq:private:OPENID1", "qq:private:OPENID2"]);
    for (const c of chats) expect(c).toMatch(/^[a-z]+:private:[^:]+$/);
  });

  it("has none without admins, and skips platforms Akasha cannot answer on", () => {
    expect(ownerPrivateChats(identity([]) as never)).toEqual([]);
    expect(ownerPrivateChats(identity(["milky:user:1"]) as never)).toEqual([]);
  });
});
