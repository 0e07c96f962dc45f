/**
 * Chat domains (docs/identity.md#chat-domains): `identity.chatDomains` folded into chat → domain.
 * A main group and its topic groups form one community; a chat listed in no domain is a
 * domain of one, so leaving domains unconfigured means "the current chat only".
 */
import type { ChatKey } from "../chat/chat-address";

export class ChatDomainIndex {
  readonly #domainOf = new Map<string, string>();
  readonly #members = new Map<string, readonly ChatKey[]>();

  /** Config is validated first (a chat is in at most one domain); a repeat is ignored here. */
  constructor(domains: Readonly<Record<string, readonly string[]>>) {
    for (const [name, chats] of Object.entries(domains)) {
      const members: ChatKey[] = [];
      for (const chat of chats) {
        if (this.#domainOf.has(chat)) continue;
        this.#domainOf.set(chat, name);
        members.push(chat as ChatKey);
      }
      this.#members.set(name, members);
    }
  }

  domainOf(chat: ChatKey): string | null {
    return this.#domainOf.get(chat) ?? null;
  }

  /** `chat` first, then the other chats of its domain in config order. */
  membersWith(chat: ChatKey): readonly ChatKey[] {
    const domain = this.domainOf(chat);
    const members = domain === null ? [] : (this.#members.get(domain) ?? []);
    return [chat, ...members.filter((c) => c !== chat)];
  }
}
