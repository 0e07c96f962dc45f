// A value named a secret after it was stored (named-after-logging.ts): every store of the chat
// object that holds it since is rewritten — here the open reminder that would say it in the chat.
import { env } from "cloudflare:workers";
import type { AccountKey, ChatKey } from "@src/domain/chat/chat-address";
import type { InboundEvent } from "@src/domain/inbound/inbound-event";
import { chatParts } from "@src/durable-objects/chat-parts";
import { maskNamedAfterLogging } from "@src/durable-objects/named-after-logging";
import { describe, it } from "vitest";
import { inFreshChatObject } from "../support/chat-object";
import { loggedBefore } from "../support/logged-before";

const CHAT = "qq:private:U1";

/** The sender's next message, `ms` after the row logged as `loggedBefore(CHAT, 1, …)`. */
function naming(text: string, ms: number): InboundEvent {
  const ts = loggedBefore(CHAT, 1, "").ts + ms;
  return {
    eventId: `qq:naming:${ms}`,
    transport: "qq",
    kind: "message",
    wireType: "C2C_MESSAGE_CREATE",
    chat: { key: CHAT as ChatKey, channel: "qq", targetType: "private", targetId: "U1" },
    sender: {
      userId: "U1",
      account: "qq:user:U1" as AccountKey,
      displayName: "小王",
      role: null,
      unionId: null,
      isBot: false,
    },
    message: { id: `n${ms}`, text, ts, addressedToBot: true, attachments: [], quotedMessageId: null },
    deletedMessageId: null,
    reply: { kind: "none" },
    receivedAt: ts,
    raw: { content: text },
  };
}

describe("a value named a secret after it was stored", () => {
  it("is hidden in the open reminders set since it was said, and in no other text", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const parts = chatParts(env, storage, storage.sql);
      const said = loggedBefore(CHAT, 1, "Xk7731ab");
      parts.log.append(said);
      const reminder = (event: string, text: string, createdAt: number) =>
        storage.sql.exec(
          `INSERT INTO reminders (event_id, set_by, set_by_name, text, due_at, created_at, delivery, state, chat, transport)
           VALUES (?, 'qq:user:U1', '小王', ?, ?, ?, 'push', 'open', '{}', 'qq')`,
          event,
          text,
          said.ts + 86_400_000,
          createdAt,
        );
      reminder("e1", "明天把 Xk7731ab 发给老婆", said.ts + 1_000);
      reminder("e2", "明天交水费", said.ts + 1_000);

      expect(maskNamedAfterLogging(parts, storage.sql, 1, naming("刚才那个是我家wifi密码", 30_000))).toBe(
        true,
      );
      const texts = storage.sql
        .exec<{ text: string }>("SELECT text FROM reminders ORDER BY id")
        .toArray()
        .map((r) => r.text);
      expect(texts).toEqual(["明天把 [已隐藏的凭据] 发给老婆", "明天交水费"]);
    });
  });
});
