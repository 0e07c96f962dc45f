/**
 * The admin's reads of one chat's log, answered by the chat's object: the API's pages, the
 * dashboard's filtered history and an export's log. They run the D1 adapters' own SQL over the
 * object's SQLite (SqlStorageDatabase) once the object holds the chat's whole log; before that
 * (an object from before the move, not yet migrated) over D1, for this chat only.
 */
import { D1ChatRegistry } from "../../adapters/d1/chat-registry";
import { D1MessageBrowser } from "../../adapters/d1/d1-message-browser";
import { exportChatLog } from "../../adapters/d1/d1-session-export";
import { openDatabase } from "../../adapters/d1/database";
import { SqlStorageDatabase } from "../../adapters/do-sql/sql-storage-database";
import type { ChatLogBrowser } from "../common/chat-log-browser";

export function objectLogBrowser(
  env: Env,
  storage: Pick<DurableObjectStorage, "sql" | "transactionSync">,
  wholeLogHere: boolean,
): ChatLogBrowser {
  const db = wholeLogHere ? new SqlStorageDatabase(storage) : env.DB;
  const registry = new D1ChatRegistry(openDatabase(db));
  const browser = new D1MessageBrowser(db);
  return {
    page: (chatKey, q) => registry.messages(chatKey, q.limit, q.before),
    browse: (chatKey, filter) => browser.messages(chatKey, filter),
    exportLog: (chatKey) => exportChatLog(db, chatKey),
  };
}
