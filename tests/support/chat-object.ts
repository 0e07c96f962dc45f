/** Runs code against the SQLite storage of a fresh chat object (schema migrated, nothing else). */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { ChatSession } from "@src/durable-objects/chat-session";

export function inFreshChatObject<T>(fn: (storage: DurableObjectStorage) => T | Promise<T>): Promise<T> {
  const stub = env.CHAT_SESSION.getByName(`test:unit:${crypto.randomUUID()}`);
  return runInDurableObject(stub, (_o: ChatSession, state) => fn(state.storage));
}
