/**
 * The SQL the owner's data migrations share. It runs through `wrangler d1 execute --file`,
 * which takes no bound parameters, so values are written as literals here — only ever
 * through `sqlString`/`sqlInteger`.
 */
import { err, ok, type Result } from "../../../domain/kernel/result";
import { type Applied, chunks } from "../../../domain/memory/owner-plan";
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

/** Who ran a migration step and which migration it is; names the audit row's key and action. */
type AuditOf = { readonly migration: string; readonly actor?: string | undefined };

/**
 * An apply's SQL: one guarded UPDATE a selected row (`update`), then the audit row keyed
 * `<migration>:apply:<stamp>` with action `<migration>_apply`.
 */
export function applySql<E>(
  entries: readonly E[],
  stamp: number,
  update: (e: E) => string,
  audit: AuditOf & { readonly detail: Record<string, unknown> },
): string {
  const lines = entries.map(update);
  lines.push(
    auditSql({
      dedupeKey: `${audit.migration}:apply:${stamp}`,
      at: stamp,
      actor: audit.actor,
      action: `${audit.migration.replaceAll("-", "_")}_apply`,
      detail: audit.detail,
    }),
  );
  return lines.join("\n");
}

/**
 * A rollback's SQL: refuses a plan never applied or already rolled back; otherwise one guarded
 * UPDATE an applied row (`restore`, given the row's plan entry, if any, and the apply's stamp)
 * and the audit row keyed `<migration>:rollback:<stamp>`.
 */
export function rollbackSql<E extends { readonly nodeId: string }>(
  plan: { readonly entries: readonly E[]; readonly applied?: Applied | undefined },
  at: number,
  restore: (id: string, e: E | undefined, stamp: number) => Result<string, string>,
  audit: AuditOf,
): Result<string, string> {
  const applied = plan.applied;
  if (!applied) return err("this plan was never applied; there is nothing to roll back");
  if (applied.rolledBack) return err(`this plan was already rolled back at ${applied.rolledBack.at}`);
  const byId = new Map(plan.entries.map((e) => [e.nodeId, e]));
  const lines: string[] = [];
  for (const id of applied.nodeIds) {
    const line = restore(id, byId.get(id), applied.stamp);
    if (!line.ok) return line;
    lines.push(line.value);
  }
  lines.push(
    auditSql({
      dedupeKey: `${audit.migration}:rollback:${applied.stamp}`,
      at,
      actor: audit.actor,
      action: `${audit.migration.replaceAll("-", "_")}_rollback`,
      detail: { rows: applied.nodeIds.length, appliedAt: applied.at },
    }),
  );
  return ok(lines.join("\n"));
}
