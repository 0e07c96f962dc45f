/**
 * A person on the Identity page: for each of their accounts, the profile a group reads (public
 * items alone) next to the one their own private chat reads, as the next turn would read them
 * (docs/memory.md#person-profiles). Through the identity service, like the JSON API.
 */
import type { AccountProfiles, PersonProfilesView } from "../../composition/request/identity-service";
import { formatTime } from "./format";
import { useT } from "./i18n/i18n";
import { PageNotices } from "./page-notices";

export const personProfilesHref = (person: string) =>
  `/admin/identity/person?id=${encodeURIComponent(person)}`;

function ProfileCard(props: { title: string; profile: AccountProfiles["public"] }) {
  const t = useT();
  const p = props.profile;
  return (
    <section class="card">
      <h3>{props.title}</h3>
      {p.text ? <pre>{p.text}</pre> : <p class="muted">{t("profiles.empty")}</p>}
      <span>
        {t("profiles.items", { n: p.items })} · {t(p.byModel ? "profiles.byModel" : "profiles.byItems")} ·{" "}
        {p.builtAt === null ? t("profiles.notKept") : t("profiles.builtAt", { at: formatTime(p.builtAt) })}
      </span>
    </section>
  );
}

export function PersonProfilesPage(props: { view?: PersonProfilesView; error?: string }) {
  const t = useT();
  const v = props.view;
  return (
    <>
      <h1>{t("profiles.heading", { person: v?.person ?? "" })}</h1>
      <p>
        <a href="/admin/identity">{t("profiles.back")}</a>
      </p>
      <PageNotices error={props.error} />
      {v && (
        <>
          <p class="muted">{t("profiles.intro")}</p>
          {!v.declared && <p class="muted">{t("profiles.undeclared")}</p>}
          {v.accounts.length === 0 && <p class="muted">{t("profiles.noAccounts")}</p>}
          {v.accounts.map((a) => (
            <>
              <h2>{t("profiles.account", { account: a.account })}</h2>
              <div class="pair">
                <ProfileCard title={t("profiles.public")} profile={a.public} />
                <ProfileCard title={t("profiles.own")} profile={a.own} />
              </div>
            </>
          ))}
        </>
      )}
    </>
  );
}
