/** The identity page's people: those declared in settings and those links or union ids created. */

import type { IdentityService } from "../../composition/request/identity-service";
import { DataTable } from "./data-table";
import { forgetPersonHref } from "./forget-person-panel";
import { formatTime } from "./format";
import { useT } from "./i18n/i18n";
import { personProfilesHref } from "./person-profiles-page";

export type IdentityOverview = Awaited<ReturnType<IdentityService["overview"]>>;

export function DeclaredPeopleSection(props: { overview: IdentityOverview }) {
  const t = useT();
  const o = props.overview;
  return (
    <>
      <h2>{t("identity.declared")}</h2>
      <DataTable
        headers={[t("identity.person"), t("identity.name"), t("identity.accounts"), t("identity.admin"), ""]}
        empty={t("identity.noDeclared")}
        rows={o.declared.map((p) => (
          <tr>
            <td>{p.id}</td>
            <td>{p.displayName}</td>
            <td>{p.accounts.join(", ")}</td>
            <td>{o.admins.includes(`person:${p.id}`) ? t("common.yes") : ""}</td>
            <td>
              <a href={personProfilesHref(p.id)}>{t("identity.profiles")}</a>{" "}
              <a href={forgetPersonHref(p.id)}>{t("identity.forget")}</a>
            </td>
          </tr>
        ))}
      />
    </>
  );
}

export function StoredPeopleSection(props: { people: IdentityOverview["people"] }) {
  const t = useT();
  return (
    <>
      <h2>{t("identity.stored")}</h2>
      <DataTable
        headers={[
          t("identity.person"),
          t("identity.name"),
          t("identity.origin"),
          t("identity.accounts"),
          t("identity.created"),
          "",
        ]}
        empty={t("identity.noStored")}
        rows={props.people.map((p) => (
          <tr>
            <td>{p.personId}</td>
            <td>{p.displayName ?? "—"}</td>
            <td>{p.origin}</td>
            <td>{p.accounts}</td>
            <td>{formatTime(p.createdAt)}</td>
            <td>
              <a href={personProfilesHref(p.personId)}>{t("identity.profiles")}</a>{" "}
              <a href={forgetPersonHref(p.personId)}>{t("identity.forget")}</a>
            </td>
          </tr>
        ))}
      />
    </>
  );
}
