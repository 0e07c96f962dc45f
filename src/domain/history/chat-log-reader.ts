/**
 * One chat's message log as a reader outside that chat sees it: the log lives in the chat's own
 * object, so every read of it is a call to that object. The reader's chat travels with every
 * call (`reader`): the object applies the same read gate as everywhere else (a message its
 * speaker marked private is served only to the chat it was said in).
 */
import type { HistoryFilter, HistoryHit, HistoryReader } from "./history-search-port";

export type ChatLogSearch = {
  readonly text: string;
  readonly limit: number;
  readonly before?: number;
} & HistoryFilter &
  HistoryReader;

export type ChatLogListing = { readonly limit: number } & HistoryFilter & HistoryReader;

export interface ChatLogReader {
  /** Full-text matches in this chat's log, best first, with their context turns (`via`). */
  search(q: ChatLogSearch): Promise<HistoryHit[]>;
  /** The newest messages (within the filter), newest first. */
  recent(q: ChatLogListing): Promise<HistoryHit[]>;
  /** The display names this chat's messages were sent under, most recently used first. */
  senders(): Promise<string[]>;
}

/** The chat objects' logs by chat key. */
export type ChatLogs = { of(chatKey: string): ChatLogReader };
