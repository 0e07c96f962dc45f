// Another person's private chat is read in no chat but itself, and by an admin from the
// admin's own private chat: a chat domain that lists two people's private chats (an owner's
// slip, or one person's accounts on two platforms) must not let one read the other's log.

import { ALLOWED_CHATS_ARG, ChatGrant } from "@src/domain/agent/chat-grant";
import { readableChatsOf, readTargetOf } from "@src/domain/agent/cross-chat-read";
import type { TurnContext } from "@src/domain/agent/turn-context";
import type { ChatKey } from "@src/domain/chat/chat-address";
import { describe, it } from "vitest";
import { withIdentity } from "../../fakes/identity-settings";
import { chatContext } from "../../support/turn-context";

const MINE = "qq:private:U1" as ChatKey;
const THEIRS = "qq:private:U2" as ChatKey;
const GROUP = "qq:group:G1" as ChatKey;
const settings = withIdentity({ chatDomains: { home: [MINE, THEIRS, GROUP] } });

const context = (chat: string): TurnContext => chatContext(chat, "查一下", { settings });

const member = (extra: Record<string, unknown> = {}) => ({
  [ALLOWED_CHATS_ARG]: ChatGrant.only([MINE, THEIRS, GROUP]),
  ...extra,
});
const admin = (extra: Record<string, unknown> = {}) => ({
  [ALLOWED_CHATS_ARG]: ChatGrant.everyChat(),
  ...extra,
});

describe("reading another chat from a private chat", () => {
  it("gives a member the domain's groups but not another private chat", ({ expect }) => {
    expect(readableChatsOf(member(), context(MINE))).toEqual([MINE, GROUP]);
    const target = readTargetOf(member({ chat: THEIRS }), context(MINE));
    expect(target.ok).toBe(false);
    // The control: a group of the domain is read.
    expect(readTargetOf(member({ chat: GROUP }), context(MINE))).toEqual({ ok: true, chat: GROUP });
  });

  it("lets an admin read another private chat from the admin's own private chat only", ({ expect }) => {
    expect(readTargetOf(admin({ chat: THEIRS }), context(MINE))).toEqual({ ok: true, chat: THEIRS });
    expect(readableChatsOf(admin(), context(MINE))).toContain(THEIRS);
    expect(readTargetOf(admin({ chat: THEIRS }), context(GROUP)).ok).toBe(false);
    expect(readableChatsOf(admin(), context(GROUP))).not.toContain(THEIRS);
  });
});

describe("reading a chat whose type is not known", () => {
  // A legacy two-part key (`milky:10001`, from before chats were typed) may well be someone's
  // private chat, and a key that does not parse names no chat with certainty: from a group or
  // channel neither is read, as a private chat would not be, whoever asks.
  const unknownTypes = [
    "milky:10001",
    "onebot:10001",
    "qq:Private:U2",
    "qq:private:U2 ",
    "qq：private：U2",
    "qq:private:U2:cron",
    "not a key",
  ];

  it.for(unknownTypes)("refuses an admin's read of %j from a group or channel", (chat, { expect }) => {
    for (const from of [GROUP, "qq:channel:C1"]) {
      const target = readTargetOf(admin({ chat }), context(from));
      expect(target.ok, `from ${from}`).toBe(false);
      if (!target.ok) expect(target.reason).toMatch(/^拒绝：/);
    }
  });

  it("still reads another group or channel from a group, and anything from an admin's private chat (the control)", ({
    expect,
  }) => {
    for (const chat of ["qq:group:G2", "qq:channel:C2", "onebot:group:748394300", "qq:group:G2:cron:x"]) {
      expect(readTargetOf(admin({ chat }), context(GROUP))).toEqual({ ok: true, chat });
    }
    expect(readTargetOf(admin({ chat: "milky:10001" }), context(MINE))).toEqual({
      ok: true,
      chat: "milky:10001",
    });
  });
});
