/**
 * The message log as the retrieval pipeline reads it: a KeywordIndex over the log's turn
 * windows (`message_windows_fts`: each message with the turn before and after it in its
 * conversation session, migrations/0180) — or, flat, over `messages_fts`, each message alone —
 * with each chat's tokens in its own namespace (see chat-search-tokens), and a ContextStore
 * over `messages`, one conversation passage per message (`m_<seq>`, scope `chat:<chat key>`)
 * whose context turns stay inside its session.
 * Both can be a view of the log before a time (`before`, ms): newer messages do not exist
 * for them. The SQL filters on chat and `recalled = 0` are the authoritative checks, and the
 * message gate (d1-message-gate.ts): another chat's marked messages are never read for the
 * view's reader, as a match, a loaded node or a context turn.
 * `messageRetrieval` builds the pair for one search, sharing the rows the keyword statement
 * already read, so that the pipeline's load of its candidates reads nothing again.
 * The index is d1-message-keyword-index.ts, the store d1-message-store.ts, the view
 * d1-message-view.ts and the rows d1-message-rows.ts.
 */
import { D1MessageKeywordIndex } from "./d1-message-keyword-index";
import { MessageRowCache } from "./d1-message-rows";
import { D1MessageStore } from "./d1-message-store";
import type { MessageView } from "./d1-message-view";

/** The index and the store of one search over a view of the log, sharing the rows read. */
export function messageRetrieval(
  db: D1Database,
  view: MessageView,
): { keywords: D1MessageKeywordIndex; store: D1MessageStore } {
  const rows = new MessageRowCache();
  return { keywords: new D1MessageKeywordIndex(db, view, rows), store: new D1MessageStore(db, view, rows) };
}
