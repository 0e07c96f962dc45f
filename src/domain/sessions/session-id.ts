/**
 * A chat's session id: `s_` + the first 10 hex digits of the chat key's content hash. Derived,
 * not allocated, so it is the same in every database, survives a registry rebuild and can be
 * computed by anyone who knows the chat key (docs/sessions.md#session-ids).
 */
import { contentHash } from "../kernel/content-hash";

export const SESSION_ID_PATTERN = /^s_[0-9a-f]{10}$/;

export function sessionIdOf(chatKey: string): string {
  return `s_${contentHash(chatKey).slice(0, 10)}`;
}
