/**
 * A message rewritten after it was logged (named-after-logging.ts): the chat object's step that
 * takes its full-text row and turn windows along, old terms out of the indexes' pages, read from
 * D1's own migration 0490 so that the two logs run the same triggers by construction. Wrangler
 * bundles `.sql` files as text.
 */
import retokened from "../../migrations/0490_rewritten_message_windows.sql";

export const REWRITTEN_MESSAGE_TRIGGERS: string = retokened;
