/** The memory page's dreaming candidates: what consolidation proposed and what it decided. */

import type { CandidateRow } from "../../composition/request/memory-service";
import { DataTable } from "./data-table";
import { formatTime } from "./format";
import { useT } from "./i18n/i18n";
import { SensitivityTag } from "./sensitivity-tag";

export function DreamingCandidatesSection(props: { candidates: readonly CandidateRow[] }) {
  const t = useT();
  return (
    <>
      <h2>{t("dreaming.title")}</h2>
      <DataTable
        headers={[
          t("overview.col.when"),
          t("memory.chat"),
          t("memory.text"),
          t("memory.scope"),
          t("memory.sensitivity"),
          t("dreaming.decision"),
        ]}
        empty={t("dreaming.none")}
        rows={props.candidates.map((c) => (
          <tr>
            <td>{formatTime(c.createdAt)}</td>
            <td>{c.chatKey}</td>
            <td>{c.text}</td>
            <td>{c.scope}</td>
            <td>
              <SensitivityTag value={c.sensitivity} />
            </td>
            <td>
              {c.decision}
              {c.reason && <div class="muted">{c.reason}</div>}
            </td>
          </tr>
        ))}
      />
    </>
  );
}
