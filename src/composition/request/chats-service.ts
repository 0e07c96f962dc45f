/**
 * Chats as admins see them: the registry, a chat's message log (paged, or filtered for the
 * dashboard's history view), and the context preview — exactly what the next turn of a chat
 * would get for a message, computed by the chat object with the turn's own code.
 */
import { D1ChatRegistry } from "../../adapters/d1/chat-registry";
import { D1MessageBrowser, type MessageFilter } from "../../adapters/d1/d1-message-browser";
import { openDatabase } from "../../adapters/d1/database";
import type { TurnPreview } from "../../domain/agent/turn-preview";
import { accountKey, chatKeyOf, parseLaneKey } from "../../domain/chat/chat-address";
import { type DomainError, err, ok, type Result } from "../../domain/kernel/result";
import { chatObject } from "../common/chat-stub";

export type { BrowsedMessage, MessageFilter } from "../../adapters/d1/d1-message-browser";
export type { TurnPreview };

export const chatRegistry = (env: Env) => new D1ChatRegistry(openDatabase(env.DB));

export type PreviewAsk = {
  /** A chat key (`qq:group:<id>`), a lane of one (`…:cron:<id>`) or a legacy key. */
  readonly chat: string;
  /** The sender's user id in that chat; for private chats defaults to the chat's user. */
  readonly sender?: string | undefined;
  readonly name?: string | undefined;
  readonly text: string;
};

export function chatsService(env: Env) {
  const registry = chatRegistry(env);
  const browser = new D1MessageBrowser(env.DB);
  return {
    list: (limit?: number) => registry.list(limit),
    messages: (chatKey: string, limit: number, before: number) => registry.messages(chatKey, limit, before),
    browse: (chatKey: string, filter: MessageFilter) => browser.messages(chatKey, filter),

    /** The next turn's context for `ask.text`, read-only; refused naming the field when the chat or sender is malformed. */
    async preview(ask: PreviewAsk): Promise<Result<TurnPreview, DomainError>> {
      const session = parseLaneKey(ask.chat);
      if (!session.ok) return err({ kind: "invalid", field: "chat", reason: session.error.reason });
      const address = session.value.address;
      const chatKey = chatKeyOf(address);
      const senderId =
        ask.sender ??
        (address.targetType === "private" || address.targetType === "dm" ? address.targetId : null);
      const account = senderId === null ? null : accountKey(address.channel, senderId);
      if (account && !account.ok)
        return err({ kind: "invalid", field: "sender", reason: account.error.reason });
      const preview = await chatObject(env, chatKey).preview({
        chat: {
          key: chatKey,
          channel: address.channel,
          targetType: address.targetType,
          targetId: address.targetId,
        },
        session: ask.chat,
        sender:
          senderId && account?.ok
            ? { userId: senderId, account: account.value, displayName: ask.name ?? null }
            : null,
        text: ask.text,
      });
      return ok(preview);
    },
  };
}

export type ChatsService = ReturnType<typeof chatsService>;
