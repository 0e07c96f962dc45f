/**
 * Person profiles over D1 `person_profiles` and `memory_scope_versions`
 * (migrations/0390_person_profiles.sql): the triggers there bump a scope's version on every
 * write to its memory items, and a profile is read only at the current sum of its scopes'
 * versions — one statement, so the version and the text it is checked against agree. A bump
 * deletes the profiles built over the scope (migration 0500): no row outlives its items' words.
 */
import type {
  BuiltProfile,
  ProfileKey,
  ProfileRewrite,
  ProfileStore,
  ProfileWriter,
  SavedProfile,
} from "../../domain/memory/profile-store";

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
        `SELECT v.version, p.text, p.items, p.updated_at AS builtAt, p.written_by AS by
         FROM (SELECT ${VERSION_SQL} AS version) v
         LEFT JOIN person_profiles p ON p.subject = ?1 AND p.audience = ?2 AND p.version = v.version`,
      )
      .bind(key.subject, key.audience, JSON.stringify(key.scopes))
      .first<{
        version: number;
        text: string | null;
        items: number | null;
        builtAt: number | null;
        by: ProfileWriter | null;
      }>();
    const text = row?.text ?? null;
    return {
      version: row?.version ?? 0,
      text,
      items: text === null ? 0 : (row?.items ?? 0),
      builtAt: text === null ? null : (row?.builtAt ?? null),
      by: text === null ? null : (row?.by ?? "extract"),
    };
  }

  async save(key: ProfileKey, version: number, built: BuiltProfile, at: number): Promise<void> {
    // Only at the current version: a build that raced a write to the items would otherwise keep
    // their old words, which the write's trigger has just deleted (migration 0500). A profile built
    // from newer items is never replaced by one built from older ones.
    await this.#d1
      .prepare(
        `INSERT INTO person_profiles (subject, audience, version, text, items, updated_at, written_by)
         SELECT ?1, ?2, ?4, ?5, ?6, ?7, 'extract' WHERE ?4 = ${VERSION_SQL}
         ON CONFLICT (subject, audience) DO UPDATE SET
           version = excluded.version, text = excluded.text, items = excluded.items,
           updated_at = excluded.updated_at, written_by = 'extract'
         WHERE excluded.version > person_profiles.version
           OR (excluded.version = person_profiles.version AND person_profiles.written_by = 'extract')`,
      )
      .bind(key.subject, key.audience, JSON.stringify(key.scopes), version, built.text, built.items, at)
      .run();
  }

  async rewrite(key: ProfileKey, version: number, outcome: ProfileRewrite, at: number): Promise<boolean> {
    // One statement: the version checked is the one the text replaces, so a write to the items
    // between the model's question and this save always wins.
    const text = outcome.by === "model" ? outcome.text : null;
    const items = outcome.by === "model" ? outcome.items : null;
    const done = await this.#d1
      .prepare(
        `UPDATE person_profiles SET text = COALESCE(?5, text), items = COALESCE(?6, items),
           written_by = ?7, updated_at = ?8
         WHERE subject = ?1 AND audience = ?2 AND version = ?4 AND written_by = 'extract'
           AND ?4 = ${VERSION_SQL}`,
      )
      .bind(key.subject, key.audience, JSON.stringify(key.scopes), version, text, items, outcome.by, at)
      .run();
    return (done.meta.changes ?? 0) > 0;
  }
}
