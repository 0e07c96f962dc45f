/**
 * The memory page's context preview: the form, and what the bot would recall if this sender
 * said this text in this chat, with the scopes the turn may read.
 */
import type { PreviewItem } from "../../domain/agent/turn-preview";
import { SensitivityTag } from "./sensitivity-tag";

export type PreviewForm = { chat: string; sender: string; text: string };
export type PreviewResult =
  | { items: readonly PreviewItem[]; readable: readonly string[] }
  | { error: string };

function PreviewFormFields(props: { form: PreviewForm }) {
  return (
    <form class="filters" method="get" action="/admin/memory#preview">
      <label>
        Chat
        <input name="pchat" value={props.form.chat} placeholder="qq:group:…" required />
      </label>
      <label>
        Sender
        <input name="psender" value={props.form.sender} placeholder="user id" />
      </label>
      <label>
        Text
        <input name="ptext" value={props.form.text} required />
      </label>
      <button type="submit">Preview</button>
    </form>
  );
}

function PreviewTable(props: { items: readonly PreviewItem[]; readable: readonly string[] }) {
  return (
    <div class="scroll" id="preview-result">
      <p class="muted">Readable scopes: {props.readable.join(", ")}</p>
      <table>
        <thead>
          <tr>
            <th>Section</th>
            <th>Text</th>
            <th>Scope</th>
            <th>Sensitivity</th>
            <th>Score</th>
          </tr>
        </thead>
        <tbody>
          {props.items.length === 0 && (
            <tr>
              <td colspan={5} class="muted">
                Nothing recalled.
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
  const result = props.result;
  return (
    <>
      <h2 id="preview">Context preview</h2>
      <p class="muted">What the bot would see if this sender said this text in this chat.</p>
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
