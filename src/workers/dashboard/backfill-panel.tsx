/**
 * The OneBot backfill's progress on the Sessions page: one row per followed OneBot group (and
 * records of groups no longer followed), with a Restart button on a failed one. A restart
 * resumes from the recorded cursor at the next cron run (restart-backfill.ts).
 */
import type { BackfillProgress } from "../../domain/backfill/backfill-progress";
import { CSRF_FIELD } from "../auth/csrf";
import { DataTable } from "./data-table";
import { formatTime } from "./format";

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
  return (
    <>
      <h2 id="backfill">OneBot backfill</h2>
      <p class="muted">
        {props.configured
          ? "The hourly cron fetches each followed OneBot group's history, newest first, within backfill's bounds."
          : "Not running: set ONEBOT_API_BASE and backfill.enabled. QQ official bots have no history API."}
      </p>
      <DataTable
        headers={["Group", "Status", "Progress", "Errors", ""]}
        empty="No followed OneBot groups."
        rows={props.groups.map((g) => (
          <tr data-backfill={g.chatKey} data-status={g.status}>
            <td>
              {props.names.get(g.chatKey) ?? g.chatKey}
              <div class="muted">
                {g.chatKey}
                {g.followed ? "" : " (not followed)"}
              </div>
            </td>
            <td>
              {g.status}
              {"doneReason" in g && g.doneReason ? <div class="muted">{g.doneReason}</div> : null}
            </td>
            <td>
              {"stored" in g ? (
                <>
                  {g.stored} stored, {g.pages} pages
                  <div class="muted">
                    cursor {g.cursor ?? "—"}, updated {formatTime(g.updatedAt)}
                    {g.restarts > 0 ? `, restarted ${g.restarts}×` : ""}
                  </div>
                </>
              ) : (
                <span class="muted">waiting for the cron</span>
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
                  <button type="submit">Restart</button>
                </form>
              )}
            </td>
          </tr>
        ))}
      />
    </>
  );
}
