/** The identity page's people: those declared in settings and those links or union ids created. */
import type { IdentityService } from "../../composition/request/identity-service";
import { DataTable } from "./data-table";
import { forgetPersonHref } from "./forget-person-panel";
import { formatTime } from "./format";

export type IdentityOverview = Awaited<ReturnType<IdentityService["overview"]>>;

export function DeclaredPeopleSection(props: { overview: IdentityOverview }) {
  const o = props.overview;
  return (
    <>
      <h2>Declared people</h2>
      <DataTable
        headers={["Person", "Name", "Accounts", "Admin", ""]}
        empty="No people declared in settings (identity.people)."
        rows={o.declared.map((p) => (
          <tr>
            <td>{p.id}</td>
            <td>{p.displayName}</td>
            <td>{p.accounts.join(", ")}</td>
            <td>{o.admins.includes(`person:${p.id}`) ? "yes" : ""}</td>
            <td>
              <a href={forgetPersonHref(p.id)}>Forget…</a>
            </td>
          </tr>
        ))}
      />
    </>
  );
}

export function StoredPeopleSection(props: { people: IdentityOverview["people"] }) {
  return (
    <>
      <h2>Stored people</h2>
      <DataTable
        headers={["Person", "Name", "Origin", "Accounts", "Created", ""]}
        empty="No people created by links or union ids."
        rows={props.people.map((p) => (
          <tr>
            <td>{p.personId}</td>
            <td>{p.displayName ?? "—"}</td>
            <td>{p.origin}</td>
            <td>{p.accounts}</td>
            <td>{formatTime(p.createdAt)}</td>
            <td>
              <a href={forgetPersonHref(p.personId)}>Forget…</a>
            </td>
          </tr>
        ))}
      />
    </>
  );
}
