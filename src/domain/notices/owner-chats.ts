/**
 * Who "the owner" is, for notices: every admin of `identity.admins` (a `person:<id>` entry
 * stands for the accounts config declares for that person), each reached in that account's own
 * private chat with the bot — `qq:user:X` → `qq:private:X`, `onebot:user:X` → `onebot:private:X`.
 * Never a group, a channel or a guild DM: the chat key is built as a private chat from the
 * account, and the chat object checks it again before it says anything.
 */
import { adminAccounts } from "../authorization/authorization-gate";
import { type ChatKey, chatAddress, chatKeyOf, parseAccountKey } from "../chat/chat-address";
import type { IdentitySettings } from "../config/identity-settings";

/** The platforms whose private chats Akasha can answer in. */
const CHANNELS: ReadonlySet<string> = new Set(["qq", "onebot"]);
/** Bound on the chats one notice message goes to. */
export const MAX_OWNER_CHATS = 10;

/** The admins' own private chats, in the order the admins are listed. */
export function ownerPrivateChats(identity: IdentitySettings): ChatKey[] {
  const out: ChatKey[] = [];
  for (const account of adminAccounts(identity)) {
    const parsed = parseAccountKey(account);
    if (!parsed.ok || !CHANNELS.has(parsed.value.channel)) continue;
    const address = chatAddress(parsed.value.channel, "private", parsed.value.userId);
    if (address.ok) out.push(chatKeyOf(address.value));
  }
  return out.slice(0, MAX_OWNER_CHATS);
}
