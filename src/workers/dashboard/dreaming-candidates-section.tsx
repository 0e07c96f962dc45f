/** The memory page's dreaming candidates: what consolidation proposed and what it decided. */
import type { CandidateRow } from "../../composition/request/memory-service";
import { DataTable } from "./data-table";
import { formatTime } from "./format";
import { SensitivityTag } from "./sensitivity-tag";

export function DreamingCandidatesSection(props: { candidates: readonly CandidateRow[] }) {
  return (
    <>
      <h2>Dreaming candidates</h2>
      <DataTable
        headers={["When", "Chat", "Text", "Scope", "Sensitivity", "Decision"]}
        empty="No candidates."
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
