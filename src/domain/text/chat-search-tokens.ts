/**
 * Per-chat token namespaces for the message log's FTS index. Each index token is prefixed
 * with a short hash of its chat key, so one FTS table holds a separate vocabulary per chat: a
 * history search reads only its chat's doclists, and bm25's document frequencies are the
 * chat's own — instead of every search walking the doclists of every chat for common words
 * like 明天 or 开会. The SQL filter on chat_key stays the authoritative check; a hash collision
 * can only add candidates that the filter then drops.
 */
import { cyrb53 } from "../kernel/content-hash";
import { matchExpression } from "./fts-query";
import { focusedQueryTokens, searchTokens } from "./search-tokens";

/** `k` + base-36 hash: letters and digits only, so unicode61 keeps prefix and token as one. */
export function chatTokenPrefix(chatKey: string): string {
  return `k${cyrb53(chatKey).toString(36)}`;
}

/** The FTS text of one message in one chat. */
export function chatIndexText(chatKey: string, text: string): string {
  const prefix = chatTokenPrefix(chatKey);
  return searchTokens(text)
    .map((t) => prefix + t)
    .join(" ");
}

/** A MATCH expression over one chat's namespace, or null when nothing is searchable. */
export function chatMatchExpression(chatKey: string, text: string): string | null {
  const prefix = chatTokenPrefix(chatKey);
  return matchExpression(focusedQueryTokens(text).map((t) => prefix + t));
}
