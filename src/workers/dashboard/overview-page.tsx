/** Overview: counts, messages per day, model usage today and over the window. */
import type { Stats, UsageRow } from "../../composition/request/insights-service";
import type { SpendReport } from "../../domain/spend/spend-report";
import { DayChart } from "./day-chart";
import { formatBytes } from "./format";
import { OverviewStatus, type OverviewStatusProps } from "./overview-sections";
import { SpendLine } from "./spend-line";

function UsageTable(props: { rows: readonly UsageRow[] }) {
  if (props.rows.length === 0) return <p class="muted">No model calls.</p>;
  return (
    <div class="scroll">
      <table>
        <thead>
          <tr>
            <th>Model</th>
            <th>Calls</th>
            <th>Errors</th>
            <th>Prompt tokens</th>
            <th>Completion tokens</th>
            <th>Avg latency</th>
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
}) {
  const s = props.stats;
  const active = s.memoryByKind.filter((m) => m.status === "active").reduce((n, m) => n + m.items, 0);
  const cards: [string, string | number][] = [
    ["Chats", s.chats],
    ["Messages", s.messages],
    ["Active memory items", active],
    ["Knowledge nodes", s.kbNodes],
    ["Audit entries", s.auditRows],
    ["Database", formatBytes(s.databaseBytes)],
  ];
  return (
    <>
      <h1>Overview</h1>
      <div class="cards">
        {cards.map(([label, value]) => (
          <div class="card">
            <b>{value}</b>
            <span>{label}</span>
          </div>
        ))}
      </div>
      <h2>Messages per day (last {props.days.length} days, UTC)</h2>
      <DayChart days={props.days} />
      <h2>Model usage today</h2>
      <UsageTable rows={props.today} />
      {props.spend ? <SpendLine spend={props.spend} /> : null}
      <h2>Model usage, last {props.days.length} days</h2>
      <UsageTable rows={props.total} />
      <h2>Memory by kind</h2>
      <p>
        {s.memoryByKind.length === 0
          ? "No memory items."
          : s.memoryByKind.map((m) => `${m.kind || "—"} (${m.status}): ${m.items}`).join(" · ")}
      </p>
      <OverviewStatus {...props.status} />
    </>
  );
}
