/** Settings: the effective settings, and the stored layer editable as JSON with compare-and-set. */
import { CSRF_FIELD } from "../auth/csrf";

export function SettingsPage(props: {
  effective: unknown;
  storedText: string;
  /** The stored layer's revision as read: the save is refused if it changed meanwhile. */
  revision: string;
  csrf: string | null;
  error?: { field: string; reason: string };
  notice?: string;
}) {
  return (
    <>
      <h1>Settings</h1>
      {props.notice && <p class="notice">{props.notice}</p>}
      <h2>Stored layer</h2>
      <p class="muted">Merged over the defaults and AKASHA_CONFIG; validated whole before it is saved.</p>
      {props.error && (
        <p class="error" role="alert" id="settings-error">
          <b>{props.error.field}</b> {props.error.reason}
        </p>
      )}
      <form method="post" action="/admin/settings">
        {props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />}
        <input type="hidden" name="revision" value={props.revision} />
        <textarea name="stored" spellcheck={false}>
          {props.storedText}
        </textarea>
        <p>
          <button type="submit">Save</button>
        </p>
      </form>
      <h2>Effective settings</h2>
      <pre class="card scroll">{JSON.stringify(props.effective, null, 2)}</pre>
    </>
  );
}
