/** The identity page's admins, chat domains and the accounts observed most recently. */
import { DataTable } from "./data-table";
import { formatTime } from "./format";
import type { IdentityOverview } from "./identity-people-sections";

export function AdminsSection(props: { admins: IdentityOverview["admins"] }) {
  return (
    <>
      <h2>Admins</h2>
      <p>
        {props.admins.length === 0 ? (
          <span class="muted">No admins (identity.admins).</span>
        ) : (
          props.admins.join(", ")
        )}
      </p>
    </>
  );
}

export function ChatDomainsSection(props: { chatDomains: IdentityOverview["chatDomains"] }) {
  return (
    <>
      <h2>Chat domains</h2>
      <DataTable
        headers={["Domain", "Chats"]}
        empty="No chat domains: every chat is a domain of its own."
        rows={Object.entries(props.chatDomains).map(([name, chats]) => (
          <tr>
            <td>{name}</td>
            <td>{chats.join(", ")}</td>
          </tr>
        ))}
      />
    </>
  );
}

export function ObservationsSection(props: { observations: IdentityOverview["observations"] }) {
  return (
    <>
      <h2>Recent observations</h2>
      <DataTable
        headers={["Account", "Chat", "Name", "Role", "Union", "First seen", "Last seen"]}
        empty="No accounts observed yet."
        rows={props.observations.map((x) => (
          <tr>
            <td>{x.accountKey}</td>
            <td>{x.chatKey}</td>
            <td>{x.displayName ?? "—"}</td>
            <td>{x.role ?? "—"}</td>
            <td>{x.unionKey ?? "—"}</td>
            <td>{formatTime(x.firstSeen)}</td>
            <td>{formatTime(x.lastSeen)}</td>
          </tr>
        ))}
      />
    </>
  );
}
