/**
 * SQL for the pipeline's IndexFilter over `nodes n`: the read gate (each scope at the levels
 * the filter names, `public` where it names none), node types, collections and root ids, each
 * bound as one JSON array so that any number of them costs one parameter (D1 allows 100 per
 * statement).
 */

import type { IndexFilter } from "../../domain/retrieval/ports";
import { filterEntries } from "../../domain/retrieval/read-gate";
import { parseScopeKey } from "../../domain/retrieval/scope-key";
import { gateJson } from "./d1-read-gate";

export type SqlFilter = { readonly where: string; readonly params: unknown[] };

/** `where` uses ?N placeholders numbered from `first`. */
export function filterSql(filter: IndexFilter, first: number): SqlFilter {
  const params: unknown[] = [];
  const next = (value: unknown) => {
    params.push(value);
    return `?${first + params.length - 1}`;
  };
  const entries = filterEntries(filter);
  const scopes = entries.map((e) => [e.type, e.id]);
  const parts = [
    "n.status = 'active'",
    // Row-value IN over a subquery lets SQLite use the (scope_type, scope_id, …) index; the
    // gate's (scope, level) rows then decide.
    `(n.scope_type, n.scope_id) IN (SELECT value ->> '$[0]', value ->> '$[1]' FROM json_each(${next(JSON.stringify(scopes))}))`,
  ];
  const gate = gateJson(entries, `?${first + params.length}`);
  next(gate.value);
  parts.push(
    gate.sql,
    `n.node_type IN (SELECT value FROM json_each(${next(JSON.stringify(filter.nodeTypes))}))`,
  );
  if (filter.collections)
    parts.push(`n.collection IN (SELECT value FROM json_each(${next(JSON.stringify(filter.collections))}))`);
  if (filter.rootIds)
    parts.push(`n.root_id IN (SELECT value FROM json_each(${next(JSON.stringify(filter.rootIds))}))`);
  return { where: parts.join(" AND "), params };
}

/** FTS5 column filter selecting rows of the given scopes: `scope_token : ("hex" OR …)`. */
export function scopeTokenMatch(filter: IndexFilter): string | null {
  const tokens = filter.scopes
    .map(parseScopeKey)
    .filter((s) => s !== null)
    .map((s) => `"${hexUtf8(`${s.type}:${s.id}`)}"`);
  return tokens.length === 0 ? null : `scope_token : (${tokens.join(" OR ")})`;
}

const encoder = new TextEncoder();

/** What SQLite's hex() gives for a TEXT value: its UTF-8 bytes, upper-case hex. */
export function hexUtf8(text: string): string {
  let out = "";
  for (const b of encoder.encode(text)) out += b.toString(16).padStart(2, "0");
  return out.toUpperCase();
}
