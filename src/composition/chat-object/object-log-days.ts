/**
 * A day of a chat's log as its daily summary reads it, answered by the chat's object: the same
 * SQL as the D1 log (d1-daily-summaries.ts `dayMessages`, with its recalled, private-marked and
 * left-out rules) over the object's own SQLite once it holds the chat's whole log, and over D1
 * before that (an object from before the move, not yet migrated), which every write still reaches.
 */
import { D1DailySummaries } from "../../adapters/d1/d1-daily-summaries";
import { SqlStorageDatabase } from "../../adapters/do-sql/sql-storage-database";
import type { DailySummaryStore } from "../../domain/summary/daily-summary-store";

export type LogDays = Pick<DailySummaryStore, "dayMessages">;

export function objectLogDays(
  env: Env,
  storage: Pick<DurableObjectStorage, "sql" | "transactionSync">,
  wholeLogHere: boolean,
): LogDays {
  return new D1DailySummaries(wholeLogHere ? new SqlStorageDatabase(storage) : env.DB);
}
