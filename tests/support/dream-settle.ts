/**
 * A shared chat's turns are dreamed only once their privacy window has passed
 * (docs/decisions/0610-dreams-wait-for-the-privacy-window.md), a one-to-one chat's once a naming
 * can no longer come (docs/decisions/0910-dreams-wait-for-a-naming.md). Tests that dream through
 * the chat object move its waiting turns and its log past the longer wait together (so every
 * mark and window between them holds as it was) and run its alarm, instead of waiting.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { PRIVACY_MARK_WINDOW_MS } from "@src/domain/history/privacy-mark";
import type { ChatSession } from "@src/durable-objects/chat-session";

/** Ages the chat's waiting turns and logged messages past both waits and runs its alarm once. */
export async function settleDreams(chatKey: string): Promise<void> {
  const stub = env.CHAT_SESSION.getByName(chatKey);
  await runInDurableObject(stub, (_o: ChatSession, state) => {
    const age = PRIVACY_MARK_WINDOW_MS + 60_000;
    state.storage.sql.exec("UPDATE dream_journal SET ts = ts - ?", age);
    state.storage.sql.exec("UPDATE messages SET ts = ts - ?", age);
  });
  await runDurableObjectAlarm(stub);
}
