/** Overview: counts, messages per day, model usage today and over the window. */

import type { Child } from "hono/jsx";
import type { Stats, UsageRow } from "../../composition/request/insights-service";
import type { SpendReport } from "../../domain/spend/spend-report";
import { DayChart } from "./day-chart";
import { formatBytes } from "./format";
import { useT } from "./i18n/i18n";
import { OverviewStatus, type OverviewStatusProps } from "./overview-sections";
import { SpendLine } from "./spend-line";

function UsageTable(props: { rows: readonly UsageRow[] }) {
  const t = useT();
  if (props.rows.length === 0) return <p class="muted">{t("overview.noCalls")}</p>;
  return (
    <div class="scroll">
      <table>
        <thead>
          <tr>
            <th>{t("overview.col.model")}</th>
            <th>{t("overview.col.calls")}</th>
            <th>{t("overview.col.errors")}</th>
            <th>{t("overview.col.promptTokens")}</th>
            <th>{t("overview.col.completionTokens")}</th>
            <th>{t("overview.col.avgLatency")}</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr>
              <td>{r.model}</td>
              <td>{r.calls}</td>
              <td>{r.errors}</td>
              <td>{r.promptTokens}</td>
              <td>{r.completionTokens}</td>
              <td>{r.avgLatencyMs} ms</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function OverviewPage(props: {
  stats: Stats;
  days: { day: string; messages: number }[];
  today: readonly UsageRow[];
  total: readonly UsageRow[];
  spend?: SpendReport;
  status: OverviewStatusProps;
  /** The open notices to the owner, first after the title: they wait for an admin. */
  notices?: Child;
}) {
  const t = useT();
  const s = props.stats;
  const active = s.memoryByKind.filter((m) => m.status === "active").reduce((n, m) => n + m.items, 0);
  const cards: [string, string | number][] = [
    [t("overview.card.chats"), s.chats],
    [t("overview.card.messages"), s.messages],
    [t("overview.card.activeMemory"), active],
    [t("overview.card.kbNodes"), s.kbNodes],
    [t("overview.card.audit"), s.auditRows],
    [t("overview.card.database"), formatBytes(s.databaseBytes)],
  ];
  return (
    <>
      <h1>{t("nav.overview")}</h1>
      {props.notices ?? null}
      <div class="cards">
        {cards.map(([label, value]) => (
          <div class="card">
            <b>{value}</b>
            <span>{label}</span>
          </div>
        ))}
      </div>
      <h2>{t("overview.perDay", { days: props.days.length })}</h2>
      <DayChart days={props.days} />
      <h2>{t("overview.usageToday")}</h2>
      <UsageTable rows={props.today} />
      {props.spend ? <SpendLine spend={props.spend} /> : null}
      <h2>{t("overview.usageWindow", { days: props.days.length })}</h2>
      <UsageTable rows={props.total} />
      <h2>{t("overview.memoryByKind")}</h2>
      <p>
        {s.memoryByKind.length === 0
          ? t("overview.noMemory")
          : s.memoryByKind.map((m) => `${m.kind || "—"} (${m.status}): ${m.items}`).join(" · ")}
      </p>
      <OverviewStatus {...props.status} />
    </>
  );
}
