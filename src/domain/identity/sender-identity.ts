/**
 * Who sent a message, as far as scope resolution needs to know (docs/identity.md#people-and-accounts, docs/memory.md#scopes). Built
 * by an IdentityResolver in the chat object before every turn. Deliberately carries no admin
 * flag: admin status never changes which memory is read; the turn passes it to memory on its
 * own, as the plain value that lets an admin's explicit writes go global.
 */
import type { AccountKey } from "../chat/chat-address";

export type SenderIdentity = {
  /** False when `identity.enabled` is off: personal memory then stays in the chat scope. */
  readonly enabled: boolean;
  readonly account: AccountKey;
  /** The person this account belongs to (config or admin link), if any. */
  readonly personId: string | null;
  /** The person is declared in config (`identity.people`); only then is their memory recalled in groups. */
  readonly declared: boolean;
};

export interface IdentityResolver {
  /** Resolves the sender of a message in a chat; never throws for unknown accounts. */
  resolve(input: { account: AccountKey; chatKey: string; unionId: string | null }): Promise<SenderIdentity>;
}

/** The resolver while identity is disabled: every sender is just their account. */
export const disabledIdentity: IdentityResolver = {
  async resolve({ account }) {
    return { enabled: false, account, personId: null, declared: false };
  },
};
