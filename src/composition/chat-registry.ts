/** The chat registry and message reads of the admin API, over D1. */
import { D1ChatRegistry } from "../adapters/d1/chat-registry";
import { openDatabase } from "../adapters/d1/database";

export function chatRegistry(env: Env): D1ChatRegistry {
  return new D1ChatRegistry(openDatabase(env.DB));
}
