/**
 * The SQL the owner's data migrations share. It runs through `wrangler d1 execute --file`,
 * which takes no bound parameters, so values are written as literals here — only ever
 * through `sqlString`/`sqlInteger`.
 */
import { chunks } from "../../../domain/memory/owner-plan";
import { auditLogRow } from "../d1-audit-log";

/** SQL string literal; refuses values that cannot be one. */
export function sqlString(value: string): string {
  if (typeof value !== "string" || value.includes("\u0000") || value.length > 2048) {
    throw new Error(`not a storable SQL string: ${JSON.stringify(String(value)).slice(0, 60)}`);
  }
  return `'${value.replaceAll("'", "''")}'`;
}

export function sqlInteger(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  return String(value);
}

/** `SELECT node_id … WHERE node_id IN (…) AND <condition>`: which rows are in a given state. */
export function verifySql(nodeIds: readonly string[], condition: string): string[] {
  return chunks(nodeIds).map(
    (ids) => `SELECT node_id FROM nodes WHERE node_id IN (${ids.map(sqlString).join(", ")}) AND ${condition}`,
  );
}

/** The audit row of an apply or rollback; `actor` is the CLI unless the dashboard's admin ran it. */
export function auditSql(input: {
  dedupeKey: string;
  at: number;
  action: string;
  detail: Record<string, unknown>;
  actor?: string | undefined;
}): string {
  const row = auditLogRow({
    dedupeKey: input.dedupeKey,
    at: input.at,
    actor: input.actor ?? "owner-cli",
    action: input.action,
    chatKey: null,
    target: null,
    detail: input.detail,
  });
  return `INSERT OR IGNORE INTO audit_log (dedupe_key, at, actor, action, chat_key, target, detail) VALUES (${sqlString(
    row.dedupeKey,
  )}, ${sqlInteger(row.at)}, ${sqlString(row.actor ?? "owner-cli")}, ${sqlString(row.action)}, NULL, NULL, ${sqlString(row.detail)});`;
}
