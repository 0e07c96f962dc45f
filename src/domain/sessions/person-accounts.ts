/**
 * A person's accounts for forgetting them: those the owner declared in `identity.people` and
 * those linked in the directory (by an admin or a union id). Null when the person is known
 * to neither, so a typo forgets nothing.
 */
import type { IdentitySettings } from "../config/identity-settings";
import type { IdentityDirectory } from "../identity/identity-directory";

export async function accountsOfPerson(
  personId: string,
  identity: Pick<IdentitySettings, "people">,
  directory: Pick<IdentityDirectory, "accountsOf" | "person">,
): Promise<string[] | null> {
  const declared = identity.people.find((p) => p.id === personId);
  const [linked, record] = await Promise.all([directory.accountsOf(personId), directory.person(personId)]);
  if (!declared && !record && linked.length === 0) return null;
  return [...new Set([...(declared?.accounts ?? []), ...linked.map((l) => l.account)])].sort();
}
