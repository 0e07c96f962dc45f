/**
 * Every writer of D1's message log and chat registry stores through one adapter
 * (D1MessageLog), which masks what it is handed as the chat object's log does — the text,
 * raw_json and sender name of a message, a chat's title, a sender's display name — so a
 * writer that forgot to mask (a relay, the backfill, a future importer) cannot store a secret.
 */
import { env } from "cloudflare:workers";
import { D1MessageLog } from "@src/adapters/d1/d1-message-log";
import { openDatabase } from "@src/adapters/d1/database";
import type { AccountKey } from "@src/domain/chat/chat-address";
import { chatIndexText } from "@src/domain/text/chat-search-tokens";
import { describe, it } from "vitest";
import { uid } from "../../support/memory";
import { storedAnywhere } from "../../support/stored-anywhere";

const GHP = "ghp_0123456789abcdefghijABCDEFGHIJ";
const PIECE = "0123456789abcdefghij";
const XOXB = "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx";

/** The group seen at `seenAt` under `title`, as a flush hands it to the registry. */
const groupTouch = (chatKey: string, seenAt: number, title: string) => ({
  chatKey,
  channel: "qq",
  targetType: "group" as const,
  targetId: chatKey.slice("qq:group:".length),
  seenAt,
  followed: true,
  title,
});

describe("D1's message log keeps no credential, whoever hands it one", () => {
  it("masks a message's text, raw_json and sender name, the chat's title and the sender's display name", async ({
    expect,
  }) => {
    const group = `G${uid()}`;
    const chatKey = `qq:group:${group}`;
    const now = Date.now();
    await new D1MessageLog(openDatabase(env.DB)).flush({
      messages: [
        {
          transport: "qq",
          chatKey,
          messageId: `m${uid()}`,
          ts: now,
          userId: "U1",
          accountKey: "qq:user:U1",
          nick: `token ${GHP}`,
          text: `密钥 ${GHP}`,
          // What a writer that forgot to mask would index, too.
          tokens: chatIndexText(chatKey, `token ${GHP}: 密钥 ${GHP}`),
          rawJson: JSON.stringify({ content: `密钥 ${GHP}` }),
          direction: "in",
        },
      ],
      recalls: [],
      chats: [groupTouch(chatKey, now, `群 ${GHP}`)],
      usage: [],
      audit: [],
      observations: [
        {
          account: "qq:user:U1" as AccountKey,
          chatKey,
          userId: "U1",
          unionKey: null,
          displayName: `token ${GHP}`,
          role: null,
          firstSeen: now,
          lastSeen: now,
        },
      ],
    });
    // The chat seen again under a new name: the registry's update path masks it too.
    await new D1MessageLog(openDatabase(env.DB)).flush({
      messages: [],
      recalls: [],
      chats: [groupTouch(chatKey, now + 1, `新群名 ${XOXB}`)],
      usage: [],
      audit: [],
    });
    expect(await storedAnywhere([GHP, PIECE, XOXB])).toEqual([]);
  });
});
