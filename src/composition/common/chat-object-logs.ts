/**
 * Every chat's message log as the Worker and other chats read it: one RPC to the chat's own
 * object per chat (ChatSession.logSearch / logRecent / logSenders), bounded and timed by the
 * fan-out (fan-out-history-search.ts). The daily summaries stay in D1's context store.
 */
import { D1ContextStore } from "../../adapters/d1/d1-context-store";
import { D1KeywordIndex } from "../../adapters/d1/d1-keyword-index";
import { chatKeyOf, parseChatKey } from "../../domain/chat/chat-address";
import type { ChatLogReader, ChatLogs } from "../../domain/history/chat-log-reader";
import type { FanOutLimits } from "../../domain/history/fan-out";
import { FanOutHistorySearch } from "../../domain/history/fan-out-history-search";
import type { HistorySearch } from "../../domain/history/history-search-port";
import type { Logger } from "../../domain/kernel/logger";
import { chatObject } from "./chat-stub";

/** A key that names no chat has no object and no log: reading it is a failure the fan-out reports. */
function readerOf(env: Env, chatKey: string): ChatLogReader {
  const address = parseChatKey(chatKey);
  if (!address.ok) {
    const refuse = async (): Promise<never> => {
      throw new Error(`not a chat key: ${chatKey}`);
    };
    return { search: refuse, recent: refuse, senders: refuse };
  }
  const stub = chatObject(env, chatKeyOf(address.value));
  return {
    search: (q) => stub.logSearch(q),
    recent: (q) => stub.logRecent(q),
    senders: () => stub.logSenders(),
  };
}

/** The reader's own chat, when the reader is a chat object: read in place, not by a call to itself. */
export type OwnLog = { readonly chatKey: string; readonly reader: ChatLogReader };

export function chatObjectLogs(env: Env, own: OwnLog | null = null): ChatLogs {
  return { of: (chatKey) => (own !== null && chatKey === own.chatKey ? own.reader : readerOf(env, chatKey)) };
}

/** History over every chat's object, with the daily summaries from D1. */
export function chatObjectHistory(
  env: Env,
  logger: Logger,
  { own = null, limits }: { readonly own?: OwnLog | null; readonly limits?: FanOutLimits } = {},
): HistorySearch {
  return new FanOutHistorySearch({
    logs: chatObjectLogs(env, own),
    after: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    summaries: { keywords: new D1KeywordIndex(env.DB), store: new D1ContextStore(env.DB) },
    logger,
    ...(limits ? { limits } : {}),
  });
}
