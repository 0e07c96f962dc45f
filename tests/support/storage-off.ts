/** A private chat whose storage is switched off through the sessions API (integration tests). */
import { uid } from "./memory";
import { registerChat, sessionsApi } from "./sessions";

/** Switches `chat`'s storage on or off through the sessions API: the status it answered. */
export const switchStorage = async (chat: string, enabled: boolean): Promise<number> =>
  (await sessionsApi(`/${chat}/store`, { enabled })).status;

/**
 * A fresh private chat of user `${prefix}${tag}`, switched off: `switched` is the status the
 * sessions API answered. Registered as seen at 0, so a flush's registry touch, which moves
 * last_seen, tells that the flush ran.
 */
export async function privateChatStorageOff(prefix: string) {
  const tag = uid();
  const user = `${prefix}${tag}`;
  const chat = `qq:private:${user}`;
  await registerChat(chat, 0);
  const switched = await switchStorage(chat, false);
  return { tag, user, chat, switched };
}
