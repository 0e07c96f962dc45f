/**
 * The identity page's "who can read what": per shared chat and sender, the memory scopes a turn
 * reads with the sensitivity levels it may see, and whether any private memory is readable.
 */
import type { ChatReadReport } from "../../domain/agent/chat-readers";
import { DataTable } from "./data-table";
import { NoRisk, RiskMarker, ScopeRead } from "./risk-marker";

function ReadersTable(props: { reports: readonly ChatReadReport[] }) {
  return (
    <DataTable
      headers={["Chat", "Sender", "Reads", "Private readable"]}
      empty="No shared chats yet."
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
  const risky = props.reports.filter((r) => r.risks.length > 0).length;
  return (
    <>
      <h2 id="readers">Who can read what</h2>
      <p class="muted">
        The memory scopes a turn in each shared chat reads, per sender, with the sensitivity levels it may see
        — computed by the turn's own scope rules.{" "}
        {risky === 0 ? "No chat can read anyone's private memory." : ""}
      </p>
      <div id="who-can-read">
        <ReadersTable reports={props.reports} />
      </div>
    </>
  );
}
