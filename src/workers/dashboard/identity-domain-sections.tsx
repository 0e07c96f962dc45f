/** The identity page's admins, chat domains and the accounts observed most recently. */

import { DataTable } from "./data-table";
import { formatTime } from "./format";
import { useT } from "./i18n/i18n";
import type { IdentityOverview } from "./identity-people-sections";

export function AdminsSection(props: { admins: IdentityOverview["admins"] }) {
  const t = useT();
  return (
    <>
      <h2>{t("identity.admins")}</h2>
      <p>
        {props.admins.length === 0 ? (
          <span class="muted">{t("identity.noAdmins")}</span>
        ) : (
          props.admins.join(", ")
        )}
      </p>
    </>
  );
}

export function ChatDomainsSection(props: { chatDomains: IdentityOverview["chatDomains"] }) {
  const t = useT();
  return (
    <>
      <h2>{t("identity.domains")}</h2>
      <DataTable
        headers={[t("identity.domain"), t("identity.chats")]}
        empty={t("identity.noDomains")}
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
  const t = useT();
  return (
    <>
      <h2>{t("identity.observations")}</h2>
      <DataTable
        headers={[
          t("identity.account"),
          t("memory.chat"),
          t("identity.name"),
          t("identity.role"),
          t("identity.union"),
          t("identity.firstSeen"),
          t("identity.lastSeen"),
        ]}
        empty={t("identity.noObservations")}
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
