/** The identity page's account links: the link form and every link, with unlink where attached. */

import { CSRF_FIELD } from "../auth/csrf";
import { DataTable } from "./data-table";
import { formatTime } from "./format";
import { useT } from "./i18n/i18n";
import type { IdentityOverview } from "./identity-people-sections";

export function AccountLinksSection(props: {
  links: IdentityOverview["links"];
  csrf: string | null;
  typed?: { account: string; person: string } | undefined;
}) {
  const t = useT();
  const csrf = props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />;
  return (
    <>
      <h2>{t("identity.links")}</h2>
      <form class="filters" method="post" action="/admin/identity/link">
        {csrf}
        <label>
          {t("identity.account")}
          <input name="account" value={props.typed?.account ?? ""} placeholder="qq:user:…" required />
        </label>
        <label>
          {t("identity.person")}
          <input
            name="person"
            value={props.typed?.person ?? ""}
            placeholder={t("identity.personHint")}
            required
          />
        </label>
        <button type="submit">{t("identity.link")}</button>
      </form>
      <DataTable
        headers={[
          t("identity.account"),
          t("identity.person"),
          t("identity.source"),
          t("identity.union"),
          t("identity.by"),
          t("overview.col.when"),
          "",
        ]}
        empty={t("identity.noLinks")}
        rows={props.links.map((l) => (
          <tr>
            <td>{l.accountKey}</td>
            <td>{l.personId ?? <span class="muted">{t("identity.detached")}</span>}</td>
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
                    {t("identity.unlink")}
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
