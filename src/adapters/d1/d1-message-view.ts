/**
 * What of the message log one history search sees (d1-message-retrieval.ts): the reader, the
 * time bounds, the senders, flat or by turn windows; and the chats a filter can match.
 */
import type { StoreFilter } from "../../domain/retrieval/ports";
import { parseScopeKey } from "../../domain/retrieval/scope-key";

/**
 * What of the log a search sees: messages at or after `since` and before `until` / `before`
 * (ms; `before` is the older name of `until`), and for matches (not the turns around them)
 * only those sent under one of `senders`' display names.
 */
export type MessageView = {
  /** The chat whose turn reads: another chat's marked messages are not served to it. */
  readonly reader: string;
  readonly before?: number;
  readonly since?: number;
  readonly until?: number;
  readonly senders?: readonly string[];
  /**
   * Match each message alone (`messages_fts`) and take context turns across sessions: the
   * flat log as it was before conversation trees, kept for the evaluation's comparison.
   */
  readonly flat?: boolean;
};

/** The chat keys of a filter that a message can match: chat scopes, passages, no collection or root. */
export function chatKeysOf(filter: StoreFilter & { readonly rootIds?: readonly string[] }): string[] {
  // Messages are passages with no collection and no root: a filter naming either matches none.
  if (!filter.nodeTypes.includes("passage") || filter.collections || filter.rootIds) return [];
  const keys = new Set<string>();
  for (const key of filter.scopes) {
    const scope = parseScopeKey(key);
    if (scope?.type === "chat") keys.add(scope.id);
  }
  return [...keys];
}

export const upperBound = (view: MessageView) =>
  Math.min(view.before ?? Number.MAX_SAFE_INTEGER, view.until ?? Number.MAX_SAFE_INTEGER);
export const lowerBound = (view: MessageView) => view.since ?? 0;
/** A JSON array of names, or null for no sender filter (SQL: `?n IS NULL OR nick IN …`). */
export const sendersParam = (view: MessageView) => (view.senders ? JSON.stringify(view.senders) : null);
export const SENDER_FILTER = (n: number) =>
  `(?${n} IS NULL OR m.nick IN (SELECT value FROM json_each(?${n})))`;
