/**
 * The read gate (src/domain/retrieval/read-gate.ts) as SQL over `nodes`: every statement that
 * reads nodes for a reader builds its visibility condition here, from the gate's entries (each
 * scope with the sensitivity levels it is read at), so the SQL filter and the checks in code
 * cannot drift.
 */
import { ALL_LEVELS, type GateEntry } from "../../domain/retrieval/read-gate";

/**
 * D1 allows 100 bound parameters per statement; an entry read at every level takes two, any
 * other three per level. Conditions stop at this many, leaving room for the rest of the statement.
 */
export const MAX_GATE_BINDS = 80;

export type GateSql = { readonly sql: string; readonly binds: string[] };

/** An entry read at every level: its scope alone decides, at two binds instead of three per level. */
const whole = (e: GateEntry) => ALL_LEVELS.every((l) => e.levels.includes(l));

/**
 * `(scope_type, scope_id) IN (VALUES (?, ?), …)` for scopes read at every level, `OR
 * (scope_type, scope_id, sensitivity) IN (VALUES (?, ?, ?), …)` for scopes read at some;
 * `0` (nothing) for no entries. A WHERE condition, so it holds before LIMIT. Entries past the
 * bind budget are left out: the reader reads less, never more.
 */
export function gateCondition(entries: readonly GateEntry[], alias = "n", budget = MAX_GATE_BINDS): GateSql {
  const all: string[] = [];
  const leveled: string[] = [];
  for (const e of entries) {
    const cost = whole(e) ? 2 : 3 * e.levels.length;
    if (all.length + leveled.length + cost > budget) break;
    if (whole(e)) all.push(e.type, e.id);
    else for (const level of e.levels) leveled.push(e.type, e.id, level);
  }
  const parts: string[] = [];
  if (all.length > 0) {
    const rows = Array.from({ length: all.length / 2 }, () => "(?, ?)").join(", ");
    parts.push(`(${alias}.scope_type, ${alias}.scope_id) IN (VALUES ${rows})`);
  }
  if (leveled.length > 0) {
    const rows = Array.from({ length: leveled.length / 3 }, () => "(?, ?, ?)").join(", ");
    parts.push(`(${alias}.scope_type, ${alias}.scope_id, ${alias}.sensitivity) IN (VALUES ${rows})`);
  }
  if (parts.length === 0) return { sql: "0", binds: [] };
  return { sql: `(${parts.join(" OR ")})`, binds: [...all, ...leveled] };
}

/**
 * The same gate, one equality condition per scope (its own index range):
 * `n.scope_type = ? AND n.scope_id = ? AND n.sensitivity IN (…)`. Scopes past the bind budget
 * are left out, as above.
 */
export function gateArms(entries: readonly GateEntry[], budget = MAX_GATE_BINDS): GateSql[] {
  const arms: GateSql[] = [];
  let used = 0;
  for (const e of entries) {
    const cost = whole(e) ? 2 : 2 + e.levels.length;
    if (used + cost > budget) break;
    used += cost;
    arms.push(
      whole(e)
        ? { sql: "n.scope_type = ? AND n.scope_id = ?", binds: [e.type, e.id] }
        : {
            sql: `n.scope_type = ? AND n.scope_id = ? AND n.sensitivity IN (${e.levels.map(() => "?").join(", ")})`,
            binds: [e.type, e.id, ...e.levels],
          },
    );
  }
  return arms;
}

/**
 * The gate as one bound JSON array of `[type, id, level]` rows (any number of scopes for one
 * parameter): `(n.scope_type, n.scope_id, n.sensitivity) IN (SELECT … FROM json_each(?N))`.
 */
export function gateJson(
  entries: readonly GateEntry[],
  param: string,
  alias = "n",
): { sql: string; value: string } {
  const rows = entries.flatMap((e) => e.levels.map((l) => [e.type, e.id, l]));
  return {
    sql: `(${alias}.scope_type, ${alias}.scope_id, ${alias}.sensitivity) IN (SELECT value ->> '$[0]', value ->> '$[1]', value ->> '$[2]' FROM json_each(${param}))`,
    value: JSON.stringify(rows),
  };
}
