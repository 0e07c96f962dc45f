/** The D1 message log: what the chat objects' outboxes flush into (and the ingest benchmark writes). */
import { D1MessageLog } from "../../adapters/d1/d1-message-log";
import { openDatabase } from "../../adapters/d1/database";

export function d1MessageLog(env: Env): D1MessageLog {
  return new D1MessageLog(openDatabase(env.DB));
}
