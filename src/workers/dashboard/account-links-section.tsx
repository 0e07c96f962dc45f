/** The identity page's account links: the link form and every link, with unlink where attached. */
import { CSRF_FIELD } from "../auth/csrf";
import { DataTable } from "./data-table";
import { formatTime } from "./format";
import type { IdentityOverview } from "./identity-people-sections";

export function AccountLinksSection(props: {
  links: IdentityOverview["links"];
  csrf: string | null;
  typed?: { account: string; person: string } | undefined;
}) {
  const csrf = props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />;
  return (
    <>
      <h2>Account links</h2>
      <form class="filters" method="post" action="/admin/identity/link">
        {csrf}
        <label>
          Account
          <input name="account" value={props.typed?.account ?? ""} placeholder="qq:user:…" required />
        </label>
        <label>
          Person
          <input name="person" value={props.typed?.person ?? ""} placeholder="person id" required />
        </label>
        <button type="submit">Link</button>
      </form>
      <DataTable
        headers={["Account", "Person", "Source", "Union", "By", "When", ""]}
        empty="No account links."
        rows={props.links.map((l) => (
          <tr>
            <td>{l.accountKey}</td>
            <td>{l.personId ?? <span class="muted">detached</span>}</td>
            <td>{l.source}</td>
            <td>{l.unionKey ?? "—"}</td>
            <td>{l.linkedBy ?? "—"}</td>
            <td>{formatTime(l.linkedAt)}</td>
            <td>
              {l.personId && (
                <form method="post" action="/admin/identity/unlink" class="inline">
                  {csrf}
                  <input type="hidden" name="account" value={l.accountKey} />
                  <button type="submit" class="quiet">
                    Unlink
                  </button>
                </form>
              )}
            </td>
          </tr>
        ))}
      />
    </>
  );
}
