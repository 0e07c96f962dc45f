/**
 * Bulk memory items for the local-only benchmarks (memory-bench, profile-bench): one JSON
 * parameter per statement, expanded by json_each, so D1's parameter cap does not apply.
 */

/** A seeded item as the benchmarks build it; `source` is its sensitivity_source. */
export type SeedMemoryRow = {
  readonly id: string;
  readonly scope_type: string;
  readonly scope_id: string;
  readonly kind: string;
  readonly text: string;
  readonly tokens: string;
  readonly importance: number;
  readonly sensitivity: string;
  readonly source: string;
  readonly portable: number | boolean;
  readonly hash: string;
  readonly at: number;
};

/** Rows per INSERT. */
const ROWS_PER_STATEMENT = 250;

export async function seedMemoryRows(db: D1Database, rows: readonly SeedMemoryRow[]): Promise<void> {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO nodes (node_id, node_type, source_type, scope_type, scope_id, kind, raw_text, retrieval_text,
       retrieval_tokens, importance, sensitivity, sensitivity_source, portable, content_hash, created_at, updated_at)
     SELECT json_extract(value, '$.id'), 'memory', 'conversation', json_extract(value, '$.scope_type'),
       json_extract(value, '$.scope_id'), json_extract(value, '$.kind'), json_extract(value, '$.text'),
       json_extract(value, '$.text'), json_extract(value, '$.tokens'), json_extract(value, '$.importance'),
       json_extract(value, '$.sensitivity'), json_extract(value, '$.source'), json_extract(value, '$.portable'),
       json_extract(value, '$.hash'), json_extract(value, '$.at'), json_extract(value, '$.at')
     FROM json_each(?)`,
  );
  const statements = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT)
    statements.push(insert.bind(JSON.stringify(rows.slice(i, i + ROWS_PER_STATEMENT))));
  await db.batch(statements);
}
