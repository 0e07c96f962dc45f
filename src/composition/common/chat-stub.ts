/** The only way the Worker reaches a chat object: by the chat key the domain built. */
import type { ChatKey } from "../../domain/chat/chat-address";

export function chatObject(env: Env, key: ChatKey) {
  return env.CHAT_SESSION.getByName(key);
}
