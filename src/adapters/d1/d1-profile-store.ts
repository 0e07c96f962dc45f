/**
 * Person profiles over D1 `person_profiles` and `memory_scope_versions`
 * (migrations/0390_person_profiles.sql): the triggers there bump a scope's version on every
 * write to its memory items, and a profile is read only at the current sum of its scopes'
 * versions — one statement, so the version and the text it is checked against agree.
 */
import type { BuiltProfile, ProfileKey, ProfileStore, SavedProfile } from "../../domain/memory/profile-store";

const VERSION_SQL =
  "(SELECT COALESCE(SUM(v.version), 0) FROM memory_scope_versions v WHERE v.scope IN (SELECT value FROM json_each(?3)))";

export class D1ProfileStore implements ProfileStore {
  readonly #d1: D1Database;
  constructor(d1: D1Database) {
    this.#d1 = d1;
  }

  async read(key: ProfileKey): Promise<SavedProfile> {
    const row = await this.#d1
      .prepare(
        `SELECT v.version, p.text, p.items, p.updated_at AS builtAt
         FROM (SELECT ${VERSION_SQL} AS version) v
         LEFT JOIN person_profiles p ON p.subject = ?1 AND p.audience = ?2 AND p.version = v.version`,
      )
      .bind(key.subject, key.audience, JSON.stringify(key.scopes))
      .first<{ version: number; text: string | null; items: number | null; builtAt: number | null }>();
    const text = row?.text ?? null;
    return {
      version: row?.version ?? 0,
      text,
      items: text === null ? 0 : (row?.items ?? 0),
      builtAt: text === null ? null : (row?.builtAt ?? null),
    };
  }

  async save(key: ProfileKey, version: number, built: BuiltProfile, at: number): Promise<void> {
    // A profile built from newer items is never replaced by one built from older ones.
    await this.#d1
      .prepare(
        `INSERT INTO person_profiles (subject, audience, version, text, items, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (subject, audience) DO UPDATE SET
           version = excluded.version, text = excluded.text, items = excluded.items, updated_at = excluded.updated_at
         WHERE excluded.version >= person_profiles.version`,
      )
      .bind(key.subject, key.audience, version, built.text, built.items, at)
      .run();
  }
}
