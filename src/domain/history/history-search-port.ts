/** Port for searching a chat's message log (the `history_search` / `history_recent` tools, recall). */
import type { SummaryHit } from "./chat-summary-search";

export type HistoryHit = {
  readonly seq: number;
  readonly chatKey: string;
  readonly messageId: string;
  readonly ts: number;
  readonly nick: string | null;
  readonly text: string;
  readonly direction: "in" | "out";
  /** Search rank (lower is better) for searches; null for recency listings. */
  readonly rank: number | null;
  /**
   * For searches: a match, or a turn next to a match shown as its context. Absent in
   * recency listings.
   */
  readonly via?: "hit" | "context";
  /**
   * Its speaker asked that it stay in its chat (privacy-mark.ts): only its own chat is served
   * it. Absent where a reader did not say, which whatever must keep such words in their chat
   * takes as marked (turn-privacy.ts).
   */
  readonly marked?: boolean;
};

/**
 * What of a chat's log a search or listing reads: messages at or after `since` and before
 * `until` (ms), and only those sent under one of `senders`' display names (matches only; the
 * turns shown around a match may be anyone's).
 */
export type HistoryFilter = {
  readonly since?: number;
  readonly until?: number;
  readonly senders?: readonly string[];
};

/**
 * The chat whose turn reads. A message its speaker marked private (privacy-mark.ts) is served
 * only to the chat it was said in: every read names its reader, so no read of another chat's
 * log can forget the gate (docs/invariants.md#one-read-gate).
 */
export type HistoryReader = { readonly reader: string };

/**
 * Why a chat of a cross-chat read was not read this time: its read failed, the read's time
 * budget ran out first, or it was past the most chats one read asks (fan-out.ts).
 */
export type UnreadReason = "failed" | "timeout" | "over-cap";

/** A chat a cross-chat read could not read this time: the answer says so, it never just lacks it. */
export type UnreadChat = { readonly chatKey: string; readonly reason: UnreadReason };

/** A read of several chats, one call each: the chats' answers (in the order asked) and the chats not read. */
export type ChatReads<T> = {
  readonly answers: readonly { readonly chatKey: string; readonly value: T }[];
  readonly unread: readonly UnreadChat[];
};

export interface HistorySearch {
  /**
   * Full-text matches in one chat's log, best first, with the turns around them as context
   * (`via`), recalled messages excluded. Returns [] (never throws) when the text has nothing
   * searchable. `before` (ms) keeps only messages older than it.
   */
  search(
    q: { chatKey: string; text: string; limit: number; before?: number } & HistoryFilter & HistoryReader,
  ): Promise<HistoryHit[]>;
  /**
   * Matches in several chats through one keyword query, the chats' matches interleaved
   * round-robin (each chat's best first), with context turns like `search`.
   */
  searchAcross(
    q: { chatKeys: readonly string[]; text: string; limit: number } & HistoryFilter & HistoryReader,
  ): Promise<HistoryHit[]>;
  /** The newest messages of one chat (within the filter), newest first. */
  recent(q: { chatKey: string; limit: number } & HistoryFilter & HistoryReader): Promise<HistoryHit[]>;
  /** The display names these chats' messages were sent under, most recently used first. */
  senders(chatKeys: readonly string[]): Promise<{ chatKey: string; nick: string }[]>;
  /**
   * The daily summaries of these chats that match the text, best first (the summary leg of
   * cross-chat recall). Optional: a history without summaries has no such leg.
   */
  searchSummaries?(q: { chatKeys: readonly string[]; text: string; limit: number }): Promise<SummaryHit[]>;
  /**
   * `searchAcross`, saying which chats it could not read. Optional: a history whose chats all
   * live in one store reads all of them or fails as a whole (then `searchAcross` is the same).
   */
  searchAcrossChats?(
    q: { chatKeys: readonly string[]; text: string; limit: number } & HistoryFilter & HistoryReader,
  ): Promise<{ hits: HistoryHit[]; unread: readonly UnreadChat[] }>;
  /**
   * Runs `read` once per chat the way this history reads several chats (bounded, side by side,
   * within a time budget), and says which chats it could not read. Optional: without it a
   * caller reads the chats one after the other.
   */
  eachChat?<T>(chatKeys: readonly string[], read: (chatKey: string) => Promise<T>): Promise<ChatReads<T>>;
}
