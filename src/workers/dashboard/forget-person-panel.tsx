/**
 * Forgetting a person on the Identity page, in two steps: the first shows what would be
 * removed (counted, nothing removed yet), the second removes it once the admin retypes the
 * person id. Both go through the same session operation as the API, audited with the admin.
 */
import type { PersonForgetPreview } from "../../domain/sessions/session-registry";
import { CSRF_FIELD } from "../auth/csrf";

export type PendingForget = { readonly person: string; readonly preview: PersonForgetPreview };

export const forgetPersonHref = (person: string) =>
  `/admin/identity/forget?person=${encodeURIComponent(person)}`;

export function ForgetPersonPanel(props: { csrf: string | null; pending?: PendingForget }) {
  const csrf = props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />;
  const p = props.pending;
  return (
    <>
      <h2 id="forget-person">Forget a person</h2>
      <p class="muted">
        Deletes the personal memory of all the person's accounts (items, candidates, embeddings) and where
        they were seen. Chat memory and the message log stay; forget a chat on the Sessions page.
      </p>
      <form class="filters" method="get" action="/admin/identity/forget">
        <label>
          Person
          <input name="person" value={p?.person ?? ""} placeholder="person id" required />
        </label>
        <button type="submit">Show what would be removed</button>
      </form>
      {p && (
        <div class="error" role="alert" id="confirm-forget-person">
          <p>
            <strong>⚠ Forgetting {p.person} deletes for good:</strong>
          </p>
          <ul>
            <li data-count="memory">{p.preview.memory} personal memory items</li>
            <li data-count="candidates">{p.preview.candidates} memory candidates</li>
            <li data-count="observations">{p.preview.observations} observations</li>
            <li data-count="accounts">
              accounts: {p.preview.accounts.length ? p.preview.accounts.join(", ") : "none"}
            </li>
          </ul>
          <form method="post" action="/admin/identity/forget" class="inline">
            {csrf}
            <input type="hidden" name="person" value={p.person} />
            <input
              name="confirm"
              placeholder={`type ${p.person}`}
              aria-label="confirm forget person"
              required
            />
            <button type="submit" class="danger">
              Forget for good
            </button>
          </form>{" "}
          <a href="/admin/identity">Cancel</a>
        </div>
      )}
    </>
  );
}
