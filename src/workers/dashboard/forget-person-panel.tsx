/**
 * Forgetting a person on the Identity page, in two steps: the first shows what would be
 * removed (counted, nothing removed yet), the second removes it once the admin retypes the
 * person id. Both go through the same session operation as the API, audited with the admin.
 */
import type { PersonForgetPreview } from "../../domain/sessions/session-registry";
import { CSRF_FIELD } from "../auth/csrf";
import { useT } from "./i18n/i18n";

export type PendingForget = { readonly person: string; readonly preview: PersonForgetPreview };

export const forgetPersonHref = (person: string) =>
  `/admin/identity/forget?person=${encodeURIComponent(person)}`;

export function ForgetPersonPanel(props: { csrf: string | null; pending?: PendingForget }) {
  const csrf = props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />;
  const p = props.pending;
  const t = useT();
  return (
    <>
      <h2 id="forget-person">{t("forgetPerson.heading")}</h2>
      <p class="muted">{t("forgetPerson.intro")}</p>
      <form class="filters" method="get" action="/admin/identity/forget">
        <label>
          {t("forgetPerson.person")}
          <input name="person" value={p?.person ?? ""} placeholder={t("forgetPerson.placeholder")} required />
        </label>
        <button type="submit">{t("forgetPerson.preview")}</button>
      </form>
      {p && (
        <div class="error" role="alert" id="confirm-forget-person">
          <p>
            <strong>{t("forgetPerson.warn", { person: p.person })}</strong>
          </p>
          <ul>
            <li data-count="memory">{t("forgetPerson.memory", { count: p.preview.memory })}</li>
            <li data-count="candidates">{t("forgetPerson.candidates", { count: p.preview.candidates })}</li>
            <li data-count="observations">
              {t("forgetPerson.observations", { count: p.preview.observations })}
            </li>
            <li data-count="accounts">
              {t("forgetPerson.accounts", {
                accounts: p.preview.accounts.length ? p.preview.accounts.join(", ") : t("common.none"),
              })}
            </li>
          </ul>
          <form method="post" action="/admin/identity/forget" class="inline">
            {csrf}
            <input type="hidden" name="person" value={p.person} />
            <input
              name="confirm"
              placeholder={t("forgetPerson.typeToConfirm", { id: p.person })}
              aria-label={t("forgetPerson.confirmAria")}
              required
            />
            <button type="submit" class="danger">
              {t("forgetPerson.submit")}
            </button>
          </form>{" "}
          <a href="/admin/identity">{t("common.cancel")}</a>
        </div>
      )}
    </>
  );
}
