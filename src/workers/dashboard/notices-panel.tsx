/**
 * The notices to the owner on the overview page (docs/decisions/0280-notices-to-the-owner.md):
 * each open notice with its count and when it was first and last seen, until an admin
 * acknowledges it (a POST the admin guard checks for CSRF, audited `notice.ack`).
 */
import type { OwnerNotice } from "../../domain/notices/owner-notice";
import { CSRF_FIELD } from "../auth/csrf";
import { DataTable } from "./data-table";
import { formatTime } from "./format";
import { useT } from "./i18n/i18n";

export function NoticesPanel(props: { notices: readonly OwnerNotice[]; csrf: string | null }) {
  const t = useT();
  return (
    <section id="notices">
      <h2>{t("notices.title")}</h2>
      <DataTable
        headers={[
          t("notices.col.id"),
          t("notices.col.what"),
          t("notices.col.count"),
          t("notices.col.seen"),
          "",
        ]}
        empty={t("notices.none")}
        rows={props.notices.map((n) => (
          <tr data-notice={n.id} data-kind={n.kind}>
            <td>#{n.id}</td>
            <td>
              {n.text}
              <div class="muted">{n.notifiedAt ? t("notices.told") : t("notices.waiting")}</div>
            </td>
            <td>{n.count}</td>
            <td>
              {formatTime(n.firstSeen)} – {formatTime(n.lastSeen)}
            </td>
            <td>
              <form method="post" action={`/admin/notices/${n.id}/ack`} class="inline">
                {props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />}
                <button type="submit">{t("notices.ack")}</button>
              </form>
            </td>
          </tr>
        ))}
      />
    </section>
  );
}
