/**
 * Who can read what in a chat: for each kind of sender a turn there may have (any member, and
 * each declared person), the memory scopes and sensitivity levels the turn reads — computed
 * with the turn's own scope builder (`chatScopeInput` + `turnScopes`), so cluster links show
 * up here the moment the turn starts reading them. A scope outside the chat's own and global
 * that a group turn reads at `private` or `secret_like` is a risk: someone's private memory
 * is read where others listen. By the privacy rules that never happens today.
 */
import type { AccountKey } from "../chat/chat-address";
import { isOneToOneKey } from "../chat/chat-address";
import type { IdentitySettings } from "../config/identity-settings";
import type { SenderIdentity } from "../identity/sender-identity";
import type { ChatLinks } from "../memory/memory-store";
import { type ReadableScope, scopeKey, turnScopes } from "../memory/scope";
import { SENSITIVITIES, type Sensitivity } from "../memory/sensitivity-level";
import { chatScopeInput } from "./memory-scopes";

export type ReadScope = {
  readonly scope: string;
  readonly sensitivities: readonly Sensitivity[];
  /** A person, account or other chat's scope read at private or secret_like level in a shared chat. */
  readonly risk: boolean;
};

export type ChatReader = {
  /** `anyone` (a member no declared person owns) or `person:<id>`. */
  readonly reader: string;
  readonly scopes: readonly ReadScope[];
};

export type ChatReadReport = {
  readonly chat: string;
  readonly readers: readonly ChatReader[];
  /** Scopes some reader of this chat reads at private or secret_like level (expected: none in a group). */
  readonly risks: readonly string[];
};

/** An account nobody declared; its key never reaches storage, it only stands for "a member". */
const ANY_MEMBER = "any:user:member" as AccountKey;

/** One readable scope as the report shows it, marked when it exposes private levels in a shared chat. */
export function readScope(chat: string, r: ReadableScope): ReadScope {
  const sensitivities = r.sensitivities ?? SENSITIVITIES;
  const own = (r.type === "chat" && r.id === chat) || r.type === "global";
  const shared = !isOneToOneKey(chat);
  const risk = shared && !own && sensitivities.some((s) => s !== "public");
  return { scope: scopeKey(r), sensitivities, risk };
}

export async function chatReaders(
  links: ChatLinks,
  identity: IdentitySettings,
  chat: string,
): Promise<ChatReadReport> {
  const senders: { reader: string; identity: SenderIdentity }[] = [
    {
      reader: "anyone",
      identity: { enabled: identity.enabled, account: ANY_MEMBER, personId: null, declared: false },
    },
  ];
  if (identity.enabled) {
    for (const person of identity.people) {
      const account = (person.accounts[0] ?? ANY_MEMBER) as AccountKey;
      senders.push({
        reader: `person:${person.id}`,
        identity: { enabled: true, account, personId: person.id, declared: true },
      });
    }
  }
  const readers: ChatReader[] = [];
  for (const s of senders) {
    const input = await chatScopeInput(links, {
      chat,
      session: chat,
      identity: s.identity,
      writesGlobal: false,
    });
    readers.push({ reader: s.reader, scopes: turnScopes(input).readable.map((r) => readScope(chat, r)) });
  }
  const risks = [...new Set(readers.flatMap((r) => r.scopes.filter((x) => x.risk).map((x) => x.scope)))];
  return { chat, readers, risks };
}
