/**
 * Who reads a person's profile, as turnScopes builds the scopes: a group turn reads the person's
 * and the account's public items alone, the person's own private chat reads all of both.
 */
import type { ReadableScope } from "../../src/domain/retrieval/read-gate";

/** The scope limited to public items. */
export const publicOnly = (s: ReadableScope): ReadableScope => ({ ...s, sensitivities: ["public"] });

export function profileReaders(personId: string, accountId: string) {
  const person = { type: "person", id: personId } as const;
  const account = { type: "account", id: accountId } as const;
  const group: ReadableScope[] = [publicOnly(person), publicOnly(account)];
  const own: ReadableScope[] = [person, account];
  return { person, account, group, own };
}
