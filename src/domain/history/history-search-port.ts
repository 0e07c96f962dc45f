/** Port for searching a chat's message log (the `history_search` / `history_recent` tools, recall). */

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
};

export interface HistorySearch {
  /**
   * Full-text matches in one chat's log, best first, with the turns around them as context
   * (`via`), recalled messages excluded. Returns [] (never throws) when the text has nothing
   * searchable. `before` (ms) keeps only messages older than it.
   */
  search(q: { chatKey: string; text: string; limit: number; before?: number }): Promise<HistoryHit[]>;
  /** The newest messages of one chat, newest first. */
  recent(q: { chatKey: string; limit: number }): Promise<HistoryHit[]>;
}
