/**
 * The bounds every history search keeps, whatever the caller asks for: a turn reads the same at
 * most from D1's log (LogHistorySearch) as from the chats' objects (FanOutHistorySearch).
 */
/** Searches return at most this many hits. */
export const MAX_SEARCH_HITS = 100;
/** Recency listings are between 1 and this many messages. */
const MAX_RECENT = 500;

/** The number of messages a recency listing asked for `limit` returns at most. */
export const recentLimit = (limit: number): number => Math.max(1, Math.min(limit, MAX_RECENT));
