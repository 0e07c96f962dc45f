/**
 * The read gate of the message log (docs/invariants.md#one-read-gate): the one SQL condition
 * every statement that serves logged messages to a turn adds. A message its speaker marked
 * private (`private_marked`, src/domain/history/privacy-mark.ts) is read only by the chat it
 * was said in; a sibling chat of its domain or cluster never sees it, as a match, a context turn
 * or a listing. tests/tooling/node-reads.test.mjs fails for a reader of `messages` that builds
 * no such condition.
 */

/**
 * `alias`'s row is served to the turn of the chat bound at `reader` (an SQL parameter such as
 * `?7`): unmarked, or said in that chat.
 */
export function messageGateSql(alias: string, reader: string): string {
  return `(${alias}.private_marked = 0 OR ${alias}.chat_key = ${reader})`;
}
