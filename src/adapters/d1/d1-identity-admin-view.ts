/**
 * The identity tables as the admin API lists them: stored people, account links and the
 * latest account observations. Bounded reads; the directory port (d1-identity-directory.ts)
 * stays the one writer.
 */

export type StoredPerson = {
  personId: string;
  displayName: string | null;
  origin: string;
  createdAt: number;
  accounts: number;
};

export type StoredLink = {
  accountKey: string;
  personId: string | null;
  source: string;
  unionKey: string | null;
  linkedBy: string | null;
  linkedAt: number;
};

export type ObservationRow = {
  accountKey: string;
  chatKey: string;
  displayName: string | null;
  role: string | null;
  unionKey: string | null;
  firstSeen: number;
  lastSeen: number;
};

export class D1IdentityAdminView {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  async people(limit: number): Promise<StoredPerson[]> {
    const { results } = await this.#db
      .prepare(
        `SELECT p.person_id AS personId, p.display_name AS displayName, p.origin, p.created_at AS createdAt,
           (SELECT count(*) FROM person_accounts a WHERE a.person_id = p.person_id) AS accounts
         FROM persons p ORDER BY p.created_at DESC LIMIT ?1`,
      )
      .bind(limit)
      .all<StoredPerson>();
    return results;
  }

  async links(limit: number): Promise<StoredLink[]> {
    const { results } = await this.#db
      .prepare(
        `SELECT account_key AS accountKey, person_id AS personId, source, union_key AS unionKey,
           linked_by AS linkedBy, linked_at AS linkedAt
         FROM person_accounts ORDER BY linked_at DESC LIMIT ?1`,
      )
      .bind(limit)
      .all<StoredLink>();
    return results;
  }

  async observations(filter: { account?: string; chat?: string; limit: number }): Promise<ObservationRow[]> {
    const { results } = await this.#db
      .prepare(
        `SELECT account_key AS accountKey, chat_key AS chatKey, display_name AS displayName, role,
           union_key AS unionKey, first_seen AS firstSeen, last_seen AS lastSeen
         FROM account_observations
         WHERE (?1 IS NULL OR account_key = ?1) AND (?2 IS NULL OR chat_key = ?2)
         ORDER BY last_seen DESC LIMIT ?3`,
      )
      .bind(filter.account ?? null, filter.chat ?? null, filter.limit)
      .all<ObservationRow>();
    return results;
  }
}
