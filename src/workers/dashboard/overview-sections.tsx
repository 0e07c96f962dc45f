/** The overview's operational sections: recent errors, retention status, embeddings status. */

import type { RecentError, RetentionStatus } from "../../composition/request/insights-service";
import type { EmbeddingsStatus } from "../../composition/request/knowledge-service";
import { DataTable } from "./data-table";
import { formatTime } from "./format";
import { useT } from "./i18n/i18n";

export type OverviewStatusProps = {
  errors: readonly RecentError[];
  retention: RetentionStatus;
  embeddings: EmbeddingsStatus | { error: string };
};

const count = (v: unknown) => (typeof v === "number" ? String(v) : "—");

export function OverviewStatus(props: OverviewStatusProps) {
  const t = useT();
  const r = props.retention;
  const e = props.embeddings;
  return (
    <>
      <h2>{t("overview.recentErrors")}</h2>
      <DataTable
        headers={[t("overview.col.when"), t("overview.col.where"), t("overview.col.error")]}
        empty={t("overview.noErrors")}
        rows={props.errors.map((x) => (
          <tr>
            <td>{formatTime(x.at)}</td>
            <td>{x.source}</td>
            <td class="bad">{x.message}</td>
          </tr>
        ))}
      />
      <h2>{t("overview.retention")}</h2>
      <p>
        {r.lastRun
          ? t("overview.retentionLast", {
              at: formatTime(r.lastRun.at),
              deleted: r.lastRun.deleted,
              more: r.lastRun.complete ? "" : t("overview.retentionMore"),
            })
          : t("overview.retentionNone")}
      </p>
      <DataTable
        headers={[
          t("overview.col.chatType"),
          t("overview.col.keptFor"),
          t("overview.col.messages"),
          t("overview.col.oldest"),
        ]}
        empty={t("overview.noMessages")}
        rows={r.byType.map((row) => (
          <tr>
            <td>{row.targetType}</td>
            <td>{t("overview.days", { days: row.days })}</td>
            <td>{row.messages}</td>
            <td>{row.oldest === null ? "—" : formatTime(row.oldest)}</td>
          </tr>
        ))}
      />
      <h2>{t("overview.embeddings")}</h2>
      {"error" in e ? (
        <p class="error">{e.error}</p>
      ) : (
        <>
          <p class="muted">
            {t("overview.embeddingsReadWrite", { read: String(e.read), write: String(e.write) })}
          </p>
          <DataTable
            headers={[
              t("overview.col.model"),
              t("overview.col.index"),
              t("overview.col.read"),
              t("overview.col.embedded"),
              t("overview.col.missing"),
              t("overview.col.synced"),
            ]}
            empty={t("overview.noModel")}
            rows={e.models.map((m) => (
              <tr>
                <td>
                  {m.key} <span class="muted">{m.model}</span>
                </td>
                <td>{m.index}</td>
                <td>{m.read ? t("common.yes") : ""}</td>
                <td>{count(m.embedded)}</td>
                <td>{count(m.missing)}</td>
                <td>{count(m.synced)}</td>
              </tr>
            ))}
          />
          <DataTable
            headers={[t("overview.col.storedVersion"), t("overview.col.vectors"), t("overview.col.inUse")]}
            empty={t("overview.noVectors")}
            rows={(e.stored ?? []).map((v) => (
              <tr>
                <td>{v.model}</td>
                <td>{v.vectors}</td>
                <td>
                  {v.inUse
                    ? t("common.yes")
                    : t("overview.notInUse", { command: `npm run akasha -- embeddings retire ${v.model}` })}
                </td>
              </tr>
            ))}
          />
        </>
      )}
    </>
  );
}
