/**
 * Chats as admins see them: the registry, a chat's message log (paged, or filtered for the
 * dashboard's history view), and the context preview — exactly what the next turn of a chat
 * would get for a message, computed by the chat object with the turn's own code. A chat's log
 * is read from the chat's own object (chat-log-browser.ts), one RPC per read.
 */
import { D1ChatRegistry } from "../../adapters/d1/chat-registry";
import { openDatabase } from "../../adapters/d1/database";
import type { TurnPreview } from "../../domain/agent/turn-preview";
import {
  accountKey,
  type ChatKey,
  chatKeyOf,
  parseChatKey,
  parseLaneKey,
} from "../../domain/chat/chat-address";
import { type DomainError, err, ok, type Result } from "../../domain/kernel/result";
import type { BrowsedMessage, LoggedMessage, LogPageAsk, MessageFilter } from "../common/chat-log-browser";
import { chatObject } from "../common/chat-stub";

export type { BrowsedMessage, LoggedMessage, MessageFilter } from "../common/chat-log-browser";
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

  /**
   * Reads the log of a chat the registry knows, from its object. A chat the registry has never
   * seen is refused before its object is asked: asking would create an object for it.
   */
  async function fromLog<T>(
    chat: string,
    read: (object: ReturnType<typeof chatObject>) => Promise<T>,
  ): Promise<Result<T, DomainError>> {
    const address = parseChatKey(chat);
    if (!address.ok) return err({ kind: "invalid", field: "chat", reason: address.error.reason });
    const key: ChatKey = chatKeyOf(address.value);
    if ((await registry.get(key)) === null) return err({ kind: "not-found", what: `chat ${key}` });
    try {
      return ok(await read(chatObject(env, key)));
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return err({ kind: "unavailable", reason: `the chat's object did not answer: ${why}` });
    }
  }

  return {
    list: (limit?: number) => registry.list(limit),
    /** A page of the chat's log, newest first, from its object. */
    messages: (chat: string, q: LogPageAsk): Promise<Result<LoggedMessage[], DomainError>> =>
      fromLog(chat, (object) => object.logPage(q)),
    /** The chat's log filtered for the dashboard's history view, from its object. */
    browse: (chat: string, filter: MessageFilter): Promise<Result<BrowsedMessage[], DomainError>> =>
      fromLog(chat, (object) => object.logBrowse(filter)),

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
