/**
 * The Memory page's form to add an item to any scope, global included — with the move form of
 * each item (memory-item-actions.tsx), the dashboard face of `POST /api/memory` and
 * `POST /api/memory/:id/move`. A private or secret item goes into a shared scope only when
 * "share anyway" is ticked, and that confirmation is audited.
 */
import { SENSITIVITIES } from "../../domain/memory/memory";
import { MEMORY_KINDS } from "../../domain/memory/scope";
import { CSRF_FIELD } from "../auth/csrf";
import { useT } from "./i18n/i18n";

export function MemoryAddSection(props: { csrf: string | null }) {
  const t = useT();
  return (
    <section>
      <h2>{t("memory.add.title")}</h2>
      <p class="muted">{t("memory.add.help")}</p>
      <form method="post" action="/admin/memory/add" class="filters">
        {props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />}
        <label>
          {t("memory.add.scope")}
          <input name="scope" required placeholder="chat:qq:group:…" />
        </label>
        <label class="wide">
          {t("memory.add.text")}
          <input name="text" required />
        </label>
        <label>
          {t("memory.add.kind")}
          <select name="kind">
            {MEMORY_KINDS.map((k) => (
              <option value={k}>{k}</option>
            ))}
          </select>
        </label>
        <label>
          {t("memory.add.sensitivity")}
          <select name="sensitivity">
            {SENSITIVITIES.map((s) => (
              <option value={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          {t("memory.add.importance")}
          <input name="importance" type="number" min="0" max="1" step="0.05" value="0.6" />
        </label>
        <ShareAnyway />
        <button type="submit">{t("memory.add.submit")}</button>
      </form>
    </section>
  );
}

export function ShareAnyway() {
  const t = useT();
  return (
    <label class="inline">
      <input type="checkbox" name="confirmShared" value="true" /> {t("memory.shareAnyway")}
    </label>
  );
}
