/**
 * The history a chat object's turn reads of its own chat: the log in the object's SQLite, read by
 * the same SQL as the D1 log (through SqlStorageDatabase, the D1 API over the object's storage),
 * with no D1 round trip — once the object holds the chat's whole log. Before that (an object from
 * before the move, not yet migrated) its chat is read from D1, which every write still reaches.
 */
import { SqlStorageDatabase } from "../../adapters/do-sql/sql-storage-database";
import type { ChatLogReader } from "../../domain/history/chat-log-reader";
import type { HistorySearch } from "../../domain/history/history-search-port";
import { OwnChatHistory } from "../../domain/history/own-chat-history";
import type { Logger } from "../../domain/kernel/logger";
import { chatObjectHistory } from "../common/chat-object-logs";
import { historySearch } from "../common/history-search";

export function objectLogHistory(
  env: Env,
  storage: Pick<DurableObjectStorage, "sql" | "transactionSync">,
  wholeLogHere: boolean,
): HistorySearch {
  return wholeLogHere ? historySearch(env, { log: new SqlStorageDatabase(storage) }) : historySearch(env);
}

/**
 * The turn's history: its own chat from `own`, every other chat from its object, and a read
 * across chats that includes its own reads that one here (`ownReader`), never by calling itself.
 */
export function turnHistory(
  env: Env,
  logger: Logger,
  chatKey: string | null,
  own: HistorySearch,
  ownReader: ChatLogReader,
): HistorySearch {
  if (chatKey === null) return chatObjectHistory(env, logger);
  return new OwnChatHistory(
    chatKey,
    own,
    chatObjectHistory(env, logger, { own: { chatKey, reader: ownReader } }),
  );
}
