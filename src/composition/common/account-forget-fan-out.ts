/**
 * A left-out person's past, from each chat's own log (docs/settings.md#privacy-leaving-a-person-out):
 * one `forgetAccount` call to the object of every chat the account may have messages in
 * (d1-person-forget.ts `chatsOfAccount`), several at once. A forget must not end partial without
 * a word: every chat whose object failed or did not answer in time is named, so the caller says
 * the forget is not done and keeps what a re-run needs to find those chats again. Every call is
 * idempotent, so a re-run repeats the done chats at no cost.
 */
import { chatsOfAccount } from "../../adapters/d1/d1-person-forget";
import { chatKeyOf, parseChatKey } from "../../domain/chat/chat-address";
import { type FanOutLimits, fanOut } from "../../domain/history/fan-out";
import { chatObject } from "./chat-stub";

export type ChatLogsForgotten = {
  /** Chats asked. */
  readonly chats: number;
  /**
   * The account's messages, each counted once: in a chat whose log is read from its object, the
   * rows deleted there; in one whose log is still read from D1, D1's rows (deleted after this).
   */
  readonly messages: number;
  /** Rows deleted from the chats' own logs. */
  readonly logged: number;
  /** Chats whose object failed or did not answer in time: the forget is not done there. */
  readonly notDone: readonly string[];
};

/**
 * Every chat is asked (no cap: a forget leaves none out), 8 at a time like a history read, and
 * a minute for all: an admin waits for the answer, and a chat's delete is a local SQLite write.
 */
const FORGET_LIMITS: FanOutLimits = { maxChats: Number.MAX_SAFE_INTEGER, concurrency: 8, budgetMs: 60_000 };

export async function forgetAccountInChats(
  env: Env,
  account: string,
  limits: FanOutLimits = FORGET_LIMITS,
): Promise<ChatLogsForgotten> {
  const chats = await chatsOfAccount(env.DB, account);
  const d1Rows = new Map(chats.map((c) => [c.chatKey, c.d1Rows]));
  const result = await fanOut(
    chats.map((c) => c.chatKey),
    async (chat) => {
      const inD1 = d1Rows.get(chat) ?? 0;
      // A key that names no chat has no object, so no log of its own: D1's delete covers it.
      const address = parseChatKey(chat);
      if (!address.ok) return { logged: 0, messages: inD1 };
      const done = await chatObject(env, chatKeyOf(address.value)).forgetAccount(account);
      return { logged: done.logged, messages: done.home === "object" ? done.logged : inD1 };
    },
    { ...limits, after: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)) },
  );
  return {
    chats: chats.length,
    messages: result.answers.reduce((n, a) => n + a.value.messages, 0),
    logged: result.answers.reduce((n, a) => n + a.value.logged, 0),
    notDone: result.unread.map((u) => u.key),
  };
}
