/**
 * What the admin reads of a chat's log, and where: each read is one RPC to the chat's own object
 * (ChatSession.logPage / logBrowse / logExport), which answers from the log it holds
 * (object-log-browser.ts). The shapes are the D1 adapters' own, so the API and the dashboard
 * answer as before the log moved.
 */
import type { D1ChatRegistry } from "../../adapters/d1/chat-registry";
import type { BrowsedMessage, MessageFilter } from "../../adapters/d1/d1-message-browser";
import type { ExportLogSource } from "../../adapters/d1/d1-session-export";
import { chatKeyOf, parseChatKey } from "../../domain/chat/chat-address";
import type { ExportMessage } from "../../domain/sessions/session-registry";
import { chatObject } from "./chat-stub";

export type { BrowsedMessage, MessageFilter };

/** One row of `GET /api/messages`. */
export type LoggedMessage = Awaited<ReturnType<D1ChatRegistry["messages"]>>[number];

/** A page of a chat's log, newest first: at most `limit` rows older than `before` (ms, exclusive). */
export type LogPageAsk = { readonly limit: number; readonly before?: number };

/** The largest page the object serves (the API's own bound). */
export const MAX_LOG_PAGE = 500;

/** The reads a chat object answers of its own log, for the chat it is. */
export type ChatLogBrowser = {
  page(chatKey: string, q: LogPageAsk): Promise<LoggedMessage[]>;
  browse(chatKey: string, filter: MessageFilter): Promise<BrowsedMessage[]>;
  exportLog(chatKey: string): Promise<ExportMessage[]>;
};

/** An export's log, from the chat's object; a key that names no chat has no log to export. */
export function objectExportLog(env: Env): ExportLogSource {
  return async (chatKey) => {
    const address = parseChatKey(chatKey);
    if (!address.ok) throw new Error(`not a chat key: ${chatKey}`);
    return chatObject(env, chatKeyOf(address.value)).logExport();
  };
}
