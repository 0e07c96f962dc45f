/**
 * A log row as it was stored before a detector read its wording: text, raw payload and index text
 * unmasked. The tests of the log sweep (docs/decisions/0990-logs-kept-before-a-detector-read-them.md)
 * write such rows straight into a store, as no writer of today would.
 */
import { type MessageRecord, senderText } from "@src/domain/history/message-record";
import { chatIndexText } from "@src/domain/text/chat-search-tokens";

/** Row `i` of `chatKey`: a person's message ("in", sent by 小王) or the bot's reply ("out"). */
export function loggedBefore(
  chatKey: string,
  i: number,
  text: string,
  direction: "in" | "out" = "in",
): MessageRecord {
  const nick = direction === "in" ? "小王" : null;
  return {
    transport: "qq",
    chatKey,
    messageId: `m${i}`,
    ts: 1_700_000_000_000 + i,
    userId: nick ? "U1" : null,
    accountKey: nick ? "qq:user:U1" : null,
    nick,
    text,
    tokens: chatIndexText(chatKey, senderText(nick, text)),
    rawJson: JSON.stringify({ id: `m${i}`, content: text }),
    direction,
  };
}
