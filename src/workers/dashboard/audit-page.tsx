/** Audit log: filter by actor, action (or family, `memory.`), chat and date. */
import type { AuditRow } from "../../composition/request/insights-service";
import { DataTable, DateRangeFields } from "./data-table";
import { formatTime } from "./format";

export type AuditFilters = { actor?: string; action?: string; chat?: string; from?: string; until?: string };

export function AuditPage(props: { filters: AuditFilters; entries: readonly AuditRow[] }) {
  const f = props.filters;
  return (
    <>
      <h1>Audit log</h1>
      <form class="filters" method="get">
        <label>
          Actor
          <input name="actor" value={f.actor ?? ""} />
        </label>
        <label>
          Action
          <input name="action" value={f.action ?? ""} placeholder="memory. or config.replace" />
        </label>
        <label>
          Chat
          <input name="chat" value={f.chat ?? ""} />
        </label>
        <DateRangeFields from={f.from} until={f.until} />
        <button type="submit">Filter</button>
      </form>
      <DataTable
        headers={["Time (UTC)", "Actor", "Action", "Chat", "Target", "Detail"]}
        empty="No entries match."
        rows={props.entries.map((e) => (
          <tr>
            <td>{formatTime(e.at)}</td>
            <td>{e.actor ?? "—"}</td>
            <td>{e.action}</td>
            <td>{e.chatKey ?? "—"}</td>
            <td>{e.target ?? "—"}</td>
            <td>
              <code>{JSON.stringify(e.detail)}</code>
            </td>
          </tr>
        ))}
      />
    </>
  );
}
