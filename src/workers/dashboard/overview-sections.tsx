/** The overview's operational sections: recent errors, retention status, embeddings status. */

import type { RecentError, RetentionStatus } from "../../composition/request/insights-service";
import type { EmbeddingsStatus } from "../../composition/request/knowledge-service";
import { DataTable } from "./data-table";
import { formatTime } from "./format";

export type OverviewStatusProps = {
  errors: readonly RecentError[];
  retention: RetentionStatus;
  embeddings: EmbeddingsStatus | { error: string };
};

const count = (v: unknown) => (typeof v === "number" ? String(v) : "—");

export function OverviewStatus(props: OverviewStatusProps) {
  const r = props.retention;
  const e = props.embeddings;
  return (
    <>
      <h2>Recent errors</h2>
      <DataTable
        headers={["When", "Where", "Error"]}
        empty="No errors recorded."
        rows={props.errors.map((x) => (
          <tr>
            <td>{formatTime(x.at)}</td>
            <td>{x.source}</td>
            <td class="bad">{x.message}</td>
          </tr>
        ))}
      />
      <h2>Retention</h2>
      <p>
        {r.lastRun
          ? `Last run ${formatTime(r.lastRun.at)}: deleted ${r.lastRun.deleted} message(s)${r.lastRun.complete ? "" : ", more left for the next run"}.`
          : "No retention run recorded yet (it runs on the cron trigger)."}
      </p>
      <DataTable
        headers={["Chat type", "Kept for", "Messages", "Oldest kept"]}
        empty="No messages stored."
        rows={r.byType.map((t) => (
          <tr>
            <td>{t.targetType}</td>
            <td>{t.days} days</td>
            <td>{t.messages}</td>
            <td>{t.oldest === null ? "—" : formatTime(t.oldest)}</td>
          </tr>
        ))}
      />
      <h2>Embeddings</h2>
      {"error" in e ? (
        <p class="error">{e.error}</p>
      ) : (
        <>
          <p class="muted">
            Read: {e.read} · write: {e.write}
          </p>
          <DataTable
            headers={["Model", "Index", "Read", "Embedded", "Missing", "In vector index"]}
            empty="No embedding model in use."
            rows={e.models.map((m) => (
              <tr>
                <td>
                  {m.key} <span class="muted">{m.model}</span>
                </td>
                <td>{m.index}</td>
                <td>{m.read ? "yes" : ""}</td>
                <td>{count(m.embedded)}</td>
                <td>{count(m.missing)}</td>
                <td>{count(m.synced)}</td>
              </tr>
            ))}
          />
          <DataTable
            headers={["Stored version", "Vectors", "In use"]}
            empty="No vectors stored."
            rows={(e.stored ?? []).map((v) => (
              <tr>
                <td>{v.model}</td>
                <td>{v.vectors}</td>
                <td>{v.inUse ? "yes" : `no — npm run akasha -- embeddings retire ${v.model}`}</td>
              </tr>
            ))}
          />
        </>
      )}
    </>
  );
}
