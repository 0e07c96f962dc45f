/** Audit log: filter by actor, action (or family, `memory.`), chat and date. */

import type { AuditRow } from "../../composition/request/insights-service";
import { DataTable, DateRangeFields } from "./data-table";
import { formatDetail, formatTime } from "./format";
import { useT } from "./i18n/i18n";

export type AuditFilters = { actor?: string; action?: string; chat?: string; from?: string; until?: string };

export function AuditPage(props: { filters: AuditFilters; entries: readonly AuditRow[] }) {
  const t = useT();
  const f = props.filters;
  return (
    <>
      <h1>{t("nav.audit")}</h1>
      <form class="filters" method="get">
        <label>
          {t("audit.actor")}
          <input name="actor" value={f.actor ?? ""} />
        </label>
        <label>
          {t("audit.action")}
          <input name="action" value={f.action ?? ""} placeholder={t("audit.actionHint")} />
        </label>
        <label>
          {t("audit.chat")}
          <input name="chat" value={f.chat ?? ""} />
        </label>
        <DateRangeFields from={f.from} until={f.until} />
        <button type="submit">{t("filter.submit")}</button>
      </form>
      <DataTable
        headers={[
          t("history.col.time"),
          t("audit.actor"),
          t("audit.action"),
          t("audit.chat"),
          t("audit.col.target"),
          t("audit.col.detail"),
        ]}
        empty={t("audit.none")}
        rows={props.entries.map((e) => (
          <tr>
            <td>{formatTime(e.at)}</td>
            <td>{e.actor ?? "—"}</td>
            <td>{e.action}</td>
            <td>{e.chatKey ?? "—"}</td>
            <td>{e.target ?? "—"}</td>
            <td>
              <code>{formatDetail(e.detail)}</code>
            </td>
          </tr>
        ))}
      />
    </>
  );
}
