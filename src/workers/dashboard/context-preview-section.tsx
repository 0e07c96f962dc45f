/**
 * The memory page's context preview: the form, and what the bot would recall if this sender
 * said this text in this chat, with the scopes the turn may read.
 */

import type { PreviewItem } from "../../domain/agent/turn-preview";
import { useT } from "./i18n/i18n";
import { SensitivityTag } from "./sensitivity-tag";

export type PreviewForm = { chat: string; sender: string; text: string };
export type PreviewResult =
  | { items: readonly PreviewItem[]; readable: readonly string[] }
  | { error: string };

function PreviewFormFields(props: { form: PreviewForm }) {
  const t = useT();
  return (
    <form class="filters" method="get" action="/admin/memory#preview">
      <label>
        {t("memory.chat")}
        <input name="pchat" value={props.form.chat} placeholder="qq:group:…" required />
      </label>
      <label>
        {t("history.sender")}
        <input name="psender" value={props.form.sender} placeholder={t("preview.senderHint")} />
      </label>
      <label>
        {t("memory.text")}
        <input name="ptext" value={props.form.text} required />
      </label>
      <button type="submit">{t("preview.submit")}</button>
    </form>
  );
}

function PreviewTable(props: { items: readonly PreviewItem[]; readable: readonly string[] }) {
  const t = useT();
  return (
    <div class="scroll" id="preview-result">
      <p class="muted">{t("preview.readable", { scopes: props.readable.join(", ") })}</p>
      <table>
        <thead>
          <tr>
            <th>{t("preview.section")}</th>
            <th>{t("memory.text")}</th>
            <th>{t("memory.scope")}</th>
            <th>{t("memory.sensitivity")}</th>
            <th>{t("preview.score")}</th>
          </tr>
        </thead>
        <tbody>
          {props.items.length === 0 && (
            <tr>
              <td colspan={5} class="muted">
                {t("preview.nothing")}
              </td>
            </tr>
          )}
          {props.items.map((p) => (
            <tr>
              <td>{p.section}</td>
              <td>{p.text}</td>
              <td>{p.scope ?? "—"}</td>
              <td>
                <SensitivityTag value={p.sensitivity} />
              </td>
              <td>{p.score === null ? "—" : p.score.toFixed(3)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ContextPreviewSection(props: { form: PreviewForm; result: PreviewResult | null }) {
  const t = useT();
  const result = props.result;
  return (
    <>
      <h2 id="preview">{t("preview.title")}</h2>
      <p class="muted">{t("preview.intro")}</p>
      <PreviewFormFields form={props.form} />
      {result &&
        ("error" in result ? (
          <p class="error" role="alert">
            {result.error}
          </p>
        ) : (
          <PreviewTable items={result.items} readable={result.readable} />
        ))}
    </>
  );
}
