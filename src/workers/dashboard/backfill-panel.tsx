/**
 * The OneBot backfill's progress on the Sessions page: one row per followed OneBot group (and
 * records of groups no longer followed), with a Restart button on a failed one. A restart
 * resumes from the recorded cursor at the next cron run (restart-backfill.ts).
 */
import type { BackfillProgress } from "../../domain/backfill/backfill-progress";
import { CSRF_FIELD } from "../auth/csrf";
import { DataTable } from "./data-table";
import { formatTime } from "./format";
import { useT } from "./i18n/i18n";

export type BackfillRow = { readonly followed: boolean } & (
  | BackfillProgress
  | { readonly chatKey: string; readonly status: "pending" }
);

export function BackfillPanel(props: {
  groups: readonly BackfillRow[];
  configured: boolean;
  names: ReadonlyMap<string, string>;
  csrf: string | null;
}) {
  const t = useT();
  return (
    <>
      <h2 id="backfill">{t("backfill.heading")}</h2>
      <p class="muted">{props.configured ? t("backfill.running") : t("backfill.off")}</p>
      <DataTable
        headers={[
          t("backfill.col.group"),
          t("backfill.col.status"),
          t("backfill.col.progress"),
          t("backfill.col.errors"),
          "",
        ]}
        empty={t("backfill.none")}
        rows={props.groups.map((g) => (
          <tr data-backfill={g.chatKey} data-status={g.status}>
            <td>
              {props.names.get(g.chatKey) ?? g.chatKey}
              <div class="muted">
                {g.chatKey}
                {g.followed ? "" : t("backfill.notFollowed")}
              </div>
            </td>
            <td>
              {g.status}
              {"doneReason" in g && g.doneReason ? <div class="muted">{g.doneReason}</div> : null}
            </td>
            <td>
              {"stored" in g ? (
                <>
                  {t("backfill.stored", { stored: g.stored, pages: g.pages })}
                  <div class="muted">
                    {t("backfill.cursor", { cursor: g.cursor ?? "—", at: formatTime(g.updatedAt) })}
                    {g.restarts > 0 ? t("backfill.restarts", { count: g.restarts }) : ""}
                  </div>
                </>
              ) : (
                <span class="muted">{t("backfill.waiting")}</span>
              )}
            </td>
            <td>
              {"errors" in g && g.errors > 0 ? (
                <>
                  {g.errors}
                  <div class="muted">{g.lastError}</div>
                </>
              ) : (
                ""
              )}
            </td>
            <td>
              {g.status === "failed" && g.followed && (
                <form method="post" action="/admin/sessions/backfill/restart" class="inline">
                  {props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />}
                  <input type="hidden" name="chat" value={g.chatKey} />
                  <button type="submit">{t("backfill.restart")}</button>
                </form>
              )}
            </td>
          </tr>
        ))}
      />
    </>
  );
}
