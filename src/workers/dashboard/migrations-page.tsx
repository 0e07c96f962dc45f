/**
 * Migrations: generate a scope-migration or sensitivity-backfill plan, tick the rows to
 * approve (a manual_review row also needs its target chat), apply, roll back. The plan's
 * before-states are the backup; every step is audited.
 */
import type { StoredPlan } from "../../composition/request/migrations-service";
import type { ScopeMigrationEntry } from "../../domain/memory/scope-migration";
import type { BackfillEntry } from "../../domain/memory/sensitivity-backfill";
import { CSRF_FIELD } from "../auth/csrf";
import { DataTable } from "./data-table";
import { formatTime } from "./format";

type Entry = ScopeMigrationEntry | BackfillEntry;

const isScope = (e: Entry): e is ScopeMigrationEntry => "chats" in e;
/** Rows an apply can change: a backfill row, or a migrate / manual_review row. */
const applicable = (e: Entry) => !isScope(e) || e.action !== "keep";

function PlanRows(props: { plan: StoredPlan; applied: boolean }) {
  const entries = props.plan.plan.entries as readonly Entry[];
  const changed = new Set(props.plan.plan.applied?.nodeIds ?? []);
  return (
    <DataTable
      headers={["Apply", "Item", "Kind", "Action", "Change", "Text"]}
      empty="The plan has no rows: nothing to migrate."
      rows={entries.map((e) => (
        <tr>
          <td>
            {props.applied ? (
              changed.has(e.nodeId) ? (
                "applied"
              ) : (
                ""
              )
            ) : applicable(e) ? (
              <input
                type="checkbox"
                name="approve"
                value={e.nodeId}
                checked={isScope(e) ? e.action === "migrate" : true}
                aria-label={`approve ${e.nodeId}`}
              />
            ) : (
              <span class="muted">—</span>
            )}
          </td>
          <td>
            <code>{e.nodeId}</code>
          </td>
          <td>{e.kind ?? "—"}</td>
          <td>{isScope(e) ? `${e.action} (${e.reason})` : e.action}</td>
          <td>
            {isScope(e) ? (
              e.action === "manual_review" && !props.applied ? (
                <select name={`to:${e.nodeId}`} aria-label={`target of ${e.nodeId}`}>
                  {e.chats.map((chat) => (
                    <option value={chat}>{chat}</option>
                  ))}
                </select>
              ) : (
                `global → ${e.to ? `chat:${e.to}` : "(stays)"}`
              )
            ) : (
              `${e.scope}: private → public`
            )}
          </td>
          <td>{e.text}</td>
        </tr>
      ))}
    />
  );
}

export function MigrationsPage(props: {
  plans: readonly StoredPlan[];
  plan: StoredPlan | null;
  csrf: string | null;
  notice?: string;
  error?: string;
}) {
  const csrf = props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />;
  const p = props.plan;
  const applied = p?.plan.applied;
  return (
    <>
      <h1>Migrations</h1>
      {props.notice && <p class="notice">{props.notice}</p>}
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <p class="muted">
        Scope migration moves global memory that structured evidence ties to one chat into that chat.
        Sensitivity backfill makes items that are private only by the old default public. A plan only reads;
        nothing changes until you apply the rows you tick.
      </p>
      <form class="filters" method="post" action="/admin/migrations/plans">
        {csrf}
        <label>
          Plan
          <select name="kind">
            <option value="scope-migration">scope-migration</option>
            <option value="sensitivity-backfill">sensitivity-backfill</option>
          </select>
        </label>
        <button type="submit">Generate plan</button>
      </form>

      {p && (
        <section id="plan">
          <h2>
            {p.kind} plan <code>{p.id}</code>
          </h2>
          <p class="muted">
            Made {formatTime(p.createdAt)} by {p.createdBy}; {p.plan.entries.length} row(s)
            {applied
              ? `; applied ${applied.at} (${applied.nodeIds.length} changed, ${applied.skipped.length} skipped)`
              : ""}
            {applied?.rolledBack
              ? `; rolled back ${applied.rolledBack.at} (${applied.rolledBack.nodeIds.length} restored, ${applied.rolledBack.conflicts.length} left alone)`
              : ""}
          </p>
          <form method="post" action={`/admin/migrations/plans/${p.id}/apply`}>
            {csrf}
            <PlanRows plan={p} applied={applied !== undefined} />
            {!applied && p.plan.entries.some(applicable) && (
              <p>
                <button type="submit">Apply ticked rows</button>
              </p>
            )}
          </form>
          {applied && !applied.rolledBack && (
            <form method="post" action={`/admin/migrations/plans/${p.id}/rollback`}>
              {csrf}
              <label class="inline">
                <input type="checkbox" name="confirm" value={p.id} required /> sure
              </label>{" "}
              <button type="submit" class="danger">
                Roll back
              </button>
            </form>
          )}
        </section>
      )}

      <h2>Recent plans</h2>
      <DataTable
        headers={["Plan", "Kind", "Made", "By", "Rows", "State"]}
        empty="No plans yet."
        rows={props.plans.map((x) => (
          <tr>
            <td>
              <a href={`/admin/migrations?plan=${x.id}#plan`}>{x.id}</a>
            </td>
            <td>{x.kind}</td>
            <td>{formatTime(x.createdAt)}</td>
            <td>{x.createdBy}</td>
            <td>{x.plan.entries.length}</td>
            <td>{x.plan.applied ? (x.plan.applied.rolledBack ? "rolled back" : "applied") : "planned"}</td>
          </tr>
        ))}
      />
    </>
  );
}
