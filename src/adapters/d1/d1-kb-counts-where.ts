/**
 * The rows of `kb_counts` (migration 0210) that a collection filter counts, as a WHERE clause
 * over the given parameters: scope ids and node types as JSON arrays, collections as a JSON
 * array or NULL (every collection of those scopes). The store's size and the keyword index's
 * two-stage window read the same count.
 */
export const kbCountsWhere = (p: { scopes: string; types: string; collections: string }): string =>
  `scope_id IN (SELECT value FROM json_each(${p.scopes})) AND node_type IN (SELECT value FROM json_each(${p.types}))
   AND (${p.collections} IS NULL OR collection IN (SELECT value FROM json_each(${p.collections})))`;
