/** The IdentityDirectory port over the D1 identity tables (migrations/0020_identity.sql). */
import { desc, eq, sql } from "drizzle-orm";
import type { AccountKey } from "../../domain/chat/chat-address";
import type {
  AccountLink,
  AccountObservation,
  IdentityDirectory,
  PersonRecord,
} from "../../domain/identity/identity-directory";
import type { Database } from "./database";
import { accountObservations, personAccounts, persons } from "./schema";

type LinkRow = typeof personAccounts.$inferSelect;

const toLink = (r: LinkRow): AccountLink => ({
  account: r.accountKey as AccountKey,
  personId: r.personId,
  source: r.source,
  unionKey: r.unionKey,
  linkedBy: r.linkedBy,
  linkedAt: r.linkedAt,
});

export class D1IdentityDirectory implements IdentityDirectory {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  async linkOf(account: AccountKey): Promise<AccountLink | null> {
    const rows = await this.#db
      .select()
      .from(personAccounts)
      .where(eq(personAccounts.accountKey, account))
      .limit(1);
    return rows[0] ? toLink(rows[0]) : null;
  }

  async accountsOfUnion(unionKey: string): Promise<{ account: AccountKey; link: AccountLink | null }[]> {
    const rows = await this.#db.all<{
      account_key: string;
      person_id: string | null;
      source: "admin" | "union" | null;
      union_key: string | null;
      linked_by: string | null;
      linked_at: number | null;
    }>(sql`
      SELECT a.account_key, l.person_id, l.source, l.union_key, l.linked_by, l.linked_at
      FROM (
        SELECT account_key FROM account_observations WHERE union_key = ${unionKey}
        UNION
        SELECT account_key FROM person_accounts WHERE union_key = ${unionKey}
      ) AS a
      LEFT JOIN person_accounts AS l ON l.account_key = a.account_key`);
    return rows.map((r) => ({
      account: r.account_key as AccountKey,
      link:
        r.source === null || r.linked_at === null
          ? null
          : {
              account: r.account_key as AccountKey,
              personId: r.person_id,
              source: r.source,
              unionKey: r.union_key,
              linkedBy: r.linked_by,
              linkedAt: r.linked_at,
            },
    }));
  }

  async accountsOf(personId: string): Promise<AccountLink[]> {
    const rows = await this.#db
      .select()
      .from(personAccounts)
      .where(eq(personAccounts.personId, personId))
      .orderBy(personAccounts.accountKey);
    return rows.map(toLink);
  }

  async person(personId: string): Promise<PersonRecord | null> {
    const rows = await this.#db.select().from(persons).where(eq(persons.personId, personId)).limit(1);
    return rows[0] ?? null;
  }

  async link(link: AccountLink, person?: Omit<PersonRecord, "personId">): Promise<void> {
    const upsert = this.#db
      .insert(personAccounts)
      .values({
        accountKey: link.account,
        personId: link.personId,
        source: link.source,
        unionKey: link.unionKey,
        linkedBy: link.linkedBy,
        linkedAt: link.linkedAt,
      })
      .onConflictDoUpdate({
        target: personAccounts.accountKey,
        set: {
          personId: link.personId,
          source: link.source,
          unionKey: sql`coalesce(excluded.union_key, ${personAccounts.unionKey})`,
          linkedBy: link.linkedBy,
          linkedAt: link.linkedAt,
        },
      });
    if (person && link.personId !== null) {
      await this.#db.batch([
        this.#db
          .insert(persons)
          .values({ personId: link.personId, ...person })
          .onConflictDoNothing(),
        upsert,
      ]);
    } else {
      await upsert;
    }
  }

  async observationsOf(account: AccountKey, limit: number): Promise<AccountObservation[]> {
    const rows = await this.#db
      .select()
      .from(accountObservations)
      .where(eq(accountObservations.accountKey, account))
      .orderBy(desc(accountObservations.lastSeen))
      .limit(limit);
    return rows.map((r) => ({
      account: r.accountKey as AccountKey,
      chatKey: r.chatKey,
      userId: r.userId,
      unionKey: r.unionKey,
      displayName: r.displayName,
      role: r.role,
      firstSeen: r.firstSeen,
      lastSeen: r.lastSeen,
    }));
  }
}
