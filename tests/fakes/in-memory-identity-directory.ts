/** IdentityDirectory over arrays, for domain tests; the D1 adapter has its own tests. */
import type { AccountKey } from "../../src/domain/chat/chat-address";
import type {
  AccountLink,
  AccountObservation,
  IdentityDirectory,
  PersonRecord,
} from "../../src/domain/identity/identity-directory";

export class InMemoryIdentityDirectory implements IdentityDirectory {
  readonly links = new Map<string, AccountLink>();
  readonly persons = new Map<string, PersonRecord>();
  readonly observations: AccountObservation[] = [];

  async linkOf(account: AccountKey): Promise<AccountLink | null> {
    return this.links.get(account) ?? null;
  }

  async accountsOfUnion(unionKey: string) {
    const accounts = new Set<AccountKey>();
    for (const o of this.observations) if (o.unionKey === unionKey) accounts.add(o.account);
    for (const l of this.links.values()) if (l.unionKey === unionKey) accounts.add(l.account);
    return [...accounts].map((account) => ({ account, link: this.links.get(account) ?? null }));
  }

  async accountsOf(personId: string): Promise<AccountLink[]> {
    return [...this.links.values()].filter((l) => l.personId === personId);
  }

  async person(personId: string): Promise<PersonRecord | null> {
    return this.persons.get(personId) ?? null;
  }

  async link(link: AccountLink, person?: Omit<PersonRecord, "personId">): Promise<void> {
    const prior = this.links.get(link.account);
    this.links.set(link.account, { ...link, unionKey: link.unionKey ?? prior?.unionKey ?? null });
    if (person && link.personId !== null && !this.persons.has(link.personId)) {
      this.persons.set(link.personId, { personId: link.personId, ...person });
    }
  }

  async observationsOf(account: AccountKey, limit: number): Promise<AccountObservation[]> {
    return this.observations
      .filter((o) => o.account === account)
      .sort((a, b) => b.lastSeen - a.lastSeen)
      .slice(0, limit);
  }
}
