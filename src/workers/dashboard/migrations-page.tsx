/**
 * Migrations: generate a scope-migration or sensitivity-backfill plan, tick the rows to
 * approve (a manual_review row also needs its target chat), apply, roll back. The plan's
 * before-states are the backup; every step is audited.
 */
import type { LogMigrationProgress } from "../../composition/request/log-migration-service";
import type { StoredPlan } from "../../composition/request/migrations-service";
import type { ScopeMigrationEntry } from "../../domain/memory/scope-migration";
import type { BackfillEntry } from "../../domain/memory/sensitivity-backfill";
import { CSRF_FIELD } from "../auth/csrf";
import { DataTable } from "./data-table";
import { formatTime } from "./format";
import { useT } from "./i18n/i18n";

type Entry = ScopeMigrationEntry | BackfillEntry;

const isScope = (e: Entry): e is ScopeMigrationEntry => "chats" in e;
/** Rows an apply can change: a backfill row, or a migrate / manual_review row. */
const applicable = (e: Entry) => !isScope(e) || e.action !== "keep";

function PlanRows(props: { plan: StoredPlan; applied: boolean }) {
  const entries = props.plan.plan.entries as readonly Entry[];
  const changed = new Set(props.plan.plan.applied?.nodeIds ?? []);
  const t = useT();
  return (
    <DataTable
      headers={[
        t("migrations.col.apply"),
        t("migrations.col.item"),
        t("migrations.col.kind"),
        t("migrations.col.action"),
        t("migrations.col.change"),
        t("migrations.col.text"),
      ]}
      empty={t("migrations.noRows")}
      rows={entries.map((e) => (
        <tr>
          <td>
            {props.applied ? (
              changed.has(e.nodeId) ? (
                t("migrations.applied")
              ) : (
                ""
              )
            ) : applicable(e) ? (
              <input
                type="checkbox"
                name="approve"
                value={e.nodeId}
                checked={isScope(e) ? e.action === "migrate" : true}
                aria-label={t("migrations.approve", { id: e.nodeId })}
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
                <select name={`to:${e.nodeId}`} aria-label={t("migrations.targetOf", { id: e.nodeId })}>
                  {e.chats.map((chat) => (
                    <option value={chat}>{chat}</option>
                  ))}
                </select>
              ) : (
                `global → ${e.to ? `chat:${e.to}` : t("migrations.stays")}`
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

/** The latest plans, each a link to its rows. */
function RecentPlans(props: { plans: readonly StoredPlan[] }) {
  const t = useT();
  return (
    <>
      <h2>{t("migrations.recent")}</h2>
      <DataTable
        headers={[
          t("migrations.plan"),
          t("migrations.col.kind"),
          t("migrations.col.made"),
          t("migrations.col.by"),
          t("migrations.col.rows"),
          t("migrations.col.state"),
        ]}
        empty={t("migrations.none")}
        rows={props.plans.map((x) => (
          <tr>
            <td>
              <a href={`/admin/migrations?plan=${x.id}#plan`}>{x.id}</a>
            </td>
            <td>{x.kind}</td>
            <td>{formatTime(x.createdAt)}</td>
            <td>{x.createdBy}</td>
            <td>{x.plan.entries.length}</td>
            <td>
              {t(
                x.plan.applied
                  ? x.plan.applied.rolledBack
                    ? "migrations.rolledBack"
                    : "migrations.applied"
                  : "migrations.planned",
              )}
            </td>
          </tr>
        ))}
      />
    </>
  );
}

/** Where the copy of the D1 log into the chat objects stands (`akasha log migrate`). */
function LogMigrationLine(props: { progress: LogMigrationProgress }) {
  const t = useT();
  const { chats, rows } = props.progress;
  return (
    <p class="muted">
      {chats.total === 0
        ? t("migrations.logNotStarted")
        : t("migrations.log", {
            verified: chats.verified,
            total: chats.total,
            skipped: chats.skipped,
            mismatch: chats.mismatch,
            copied: rows.copied,
            rows: rows.total,
          })}
    </p>
  );
}

export function MigrationsPage(props: {
  plans: readonly StoredPlan[];
  logMigration: LogMigrationProgress;
  plan: StoredPlan | null;
  csrf: string | null;
  notice?: string;
  error?: string;
}) {
  const csrf = props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />;
  const p = props.plan;
  const applied = p?.plan.applied;
  const t = useT();
  return (
    <>
      <h1>{t("nav.migrations")}</h1>
      {props.notice && <p class="notice">{props.notice}</p>}
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <p class="muted">{t("migrations.intro")}</p>
      <LogMigrationLine progress={props.logMigration} />
      <form class="filters" method="post" action="/admin/migrations/plans">
        {csrf}
        <label>
          {t("migrations.plan")}
          <select name="kind">
            <option value="scope-migration">scope-migration</option>
            <option value="sensitivity-backfill">sensitivity-backfill</option>
          </select>
        </label>
        <button type="submit">{t("migrations.generate")}</button>
      </form>

      {p && (
        <section id="plan">
          <h2>
            {t("migrations.planOf", { kind: p.kind })} <code>{p.id}</code>
          </h2>
          <p class="muted">
            {t("migrations.made", {
              at: formatTime(p.createdAt),
              by: p.createdBy,
              rows: p.plan.entries.length,
            })}
            {applied
              ? t("migrations.appliedAt", {
                  at: applied.at,
                  changed: applied.nodeIds.length,
                  skipped: applied.skipped.length,
                })
              : ""}
            {applied?.rolledBack
              ? t("migrations.rolledBackAt", {
                  at: applied.rolledBack.at,
                  restored: applied.rolledBack.nodeIds.length,
                  conflicts: applied.rolledBack.conflicts.length,
                })
              : ""}
          </p>
          <form method="post" action={`/admin/migrations/plans/${p.id}/apply`}>
            {csrf}
            <PlanRows plan={p} applied={applied !== undefined} />
            {!applied && p.plan.entries.some(applicable) && (
              <p>
                <button type="submit">{t("migrations.applyTicked")}</button>
              </p>
            )}
          </form>
          {applied && !applied.rolledBack && (
            <form method="post" action={`/admin/migrations/plans/${p.id}/rollback`}>
              {csrf}
              <label class="inline">
                <input type="checkbox" name="confirm" value={p.id} required /> {t("migrations.sure")}
              </label>{" "}
              <button type="submit" class="danger">
                {t("migrations.rollback")}
              </button>
            </form>
          )}
        </section>
      )}

      <RecentPlans plans={props.plans} />
    </>
  );
}
