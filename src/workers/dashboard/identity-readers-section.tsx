/**
 * The identity page's "who can read what": per shared chat and sender, the memory scopes a turn
 * reads with the sensitivity levels it may see, and whether any private memory is readable.
 */
import type { ChatReadReport } from "../../domain/agent/chat-readers";
import { DataTable } from "./data-table";
import { useT } from "./i18n/i18n";
import { NoRisk, RiskMarker, ScopeRead } from "./risk-marker";

function ReadersTable(props: { reports: readonly ChatReadReport[] }) {
  const t = useT();
  return (
    <DataTable
      headers={[
        t("readers.col.chat"),
        t("readers.col.sender"),
        t("readers.col.reads"),
        t("readers.col.private"),
      ]}
      empty={t("readers.none")}
      rows={props.reports.flatMap((report) =>
        report.readers.map((r, i) => (
          <tr>
            <td>{i === 0 ? report.chat : ""}</td>
            <td>{r.reader}</td>
            <td>
              {r.scopes.map((s) => (
                <ScopeRead scope={s.scope} sensitivities={s.sensitivities} risk={s.risk} />
              ))}
            </td>
            <td>
              {r.scopes.some((s) => s.risk) ? (
                <RiskMarker
                  label={r.scopes
                    .filter((s) => s.risk)
                    .map((s) => s.scope)
                    .join(", ")}
                />
              ) : (
                <NoRisk />
              )}
            </td>
          </tr>
        )),
      )}
    />
  );
}

export function IdentityReadersSection(props: { reports: readonly ChatReadReport[] }) {
  const t = useT();
  const risky = props.reports.filter((r) => r.risks.length > 0).length;
  return (
    <>
      <h2 id="readers">{t("readers.heading")}</h2>
      <p class="muted">
        {t("readers.intro")} {risky === 0 ? t("readers.noRisk") : ""}
      </p>
      <div id="who-can-read">
        <ReadersTable reports={props.reports} />
      </div>
    </>
  );
}
