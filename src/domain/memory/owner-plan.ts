/**
 * What the owner's data migrations share (docs/memory.md#owner-migrations): a JSON plan written by `inspect`
 * that lists every row it would change with that row's before-state (the plan is the
 * backup), an approval per row, and SQL generated from it for `apply` and `rollback`. Every
 * UPDATE is guarded by the state it expects, so a row that changed since the plan — or since
 * the apply — is left alone and reported instead of overwritten.
 *
 * The SQL runs through `wrangler d1 execute --file`, which takes no bound parameters, so
 * values are written as literals here — only ever through `sqlString`/`sqlInteger`.
 */
import { err, ok, type Result } from "../kernel/result";

export type Approval = "pending" | "approved" | "rejected";
export type Database = "local" | "remote";

export type Backup =
  | { readonly kind: "local-copy"; readonly path: string; readonly at: string }
  | { readonly kind: "time-travel"; readonly bookmark: string; readonly at: string }
  /** Applied from the dashboard: the plan's before-states, kept in D1 (owner_plans), are the backup. */
  | { readonly kind: "plan-before-states"; readonly at: string };

/** Written into the plan file by `apply`; `rollback` reads it. */
export type Applied = {
  readonly at: string;
  /** The updated_at every applied row was given: how rollback recognises an untouched row. */
  readonly stamp: number;
  readonly nodeIds: readonly string[];
  /** Selected rows the guarded UPDATE did not change (they changed since the plan). */
  readonly skipped: readonly string[];
  readonly backup: Backup;
  readonly rolledBack?: {
    readonly at: string;
    readonly nodeIds: readonly string[];
    readonly conflicts: readonly string[];
  };
};

export type PlanHeader<K extends string> = {
  readonly kind: K;
  readonly version: 1;
  readonly createdAt: string;
  readonly database: Database;
  readonly applied?: Applied;
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Checks the parts every plan has; `entries` are checked by each migration. */
export function checkHeader<K extends string>(
  json: unknown,
  kind: K,
  database: Database,
): Result<Record<string, unknown> & PlanHeader<K>, string> {
  if (!isObject(json)) return err("the plan is not a JSON object");
  if (json.kind !== kind) return err(`the plan is a '${String(json.kind)}' plan, not '${kind}'`);
  if (json.version !== 1) return err(`plan version ${String(json.version)} is not supported (expected 1)`);
  if (json.database !== database) {
    return err(`the plan was made for the ${String(json.database)} database; this run targets ${database}`);
  }
  if (!Array.isArray(json.entries)) return err("the plan has no entries array");
  return ok(json as Record<string, unknown> & PlanHeader<K>);
}

export function checkApproval(value: unknown, where: string): Result<Approval, string> {
  return value === "pending" || value === "approved" || value === "rejected"
    ? ok(value)
    : err(`${where}: approval must be "pending", "approved" or "rejected", not ${JSON.stringify(value)}`);
}

export const isObjectValue = isObject;

/** A plan entry whose nodeId, action and approval `checkEntries` has checked. */
export type CheckedEntry = Record<string, unknown> & { readonly nodeId: string; readonly action: string };

/**
 * Checks what every plan's entries share — a nodeId listed once, one of the migration's
 * `actions`, an approval — then hands the entry to `check` for the migration's own fields
 * (`where` names the entry in a refusal). The first refusal ends the read.
 */
export function checkEntries(
  entries: readonly unknown[],
  actions: readonly string[],
  check: (e: CheckedEntry, where: string) => Result<void, string>,
): Result<void, string> {
  const seen = new Set<string>();
  for (const [i, e] of entries.entries()) {
    const where = `entry ${i}`;
    if (!isObject(e) || typeof e.nodeId !== "string" || e.nodeId === "") return err(`${where}: no nodeId`);
    if (seen.has(e.nodeId)) return err(`${where}: node ${e.nodeId} is listed twice`);
    seen.add(e.nodeId);
    if (typeof e.action !== "string" || !actions.includes(e.action))
      return err(`${where} (${e.nodeId}): unknown action ${JSON.stringify(e.action)}`);
    const approval = checkApproval(e.approval, `${where} (${e.nodeId})`);
    if (!approval.ok) return approval;
    const checked = check(e as CheckedEntry, where);
    if (!checked.ok) return checked;
  }
  return ok(undefined);
}

/** Splits ids into chunks that keep a statement well under D1's size limit. */
export function chunks<T>(items: readonly T[], size = 200): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
