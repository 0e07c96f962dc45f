/**
 * Memory: browse and filter items, archive/restore/forget them, the dreaming candidates, and
 * the context preview — what the bot would see if a sender said a text in a chat.
 */
import type { CandidateRow } from "../../composition/request/memory-service";
import type { PreviewItem } from "../../domain/agent/turn-preview";
import type { MemoryItem } from "../../domain/memory/memory";
import { SENSITIVITIES } from "../../domain/memory/memory";
import { MEMORY_KINDS } from "../../domain/memory/scope";
import { CSRF_FIELD } from "../auth/csrf";
import { DataTable } from "./data-table";
import { formatTime } from "./format";

export type MemoryFilters = Record<
  "scope" | "kind" | "sensitivity" | "status" | "chat" | "person" | "text",
  string
>;
export type PreviewForm = { chat: string; sender: string; text: string };
export type PreviewResult =
  | { items: readonly PreviewItem[]; readable: readonly string[] }
  | { error: string };

const Sensitivity = (props: { value: string | null }) => (
  <span class={`tag ${props.value ?? ""}`}>{props.value ?? "—"}</span>
);

function Select(props: { label: string; name: string; value: string; options: readonly string[] }) {
  return (
    <label>
      {props.label}
      <select name={props.name}>
        <option value="">any</option>
        {props.options.map((o) => (
          <option value={o} selected={o === props.value}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

function Actions(props: { item: MemoryItem; csrf: string | null }) {
  const id = props.item.nodeId;
  const base = `/admin/memory/${encodeURIComponent(id)}`;
  const csrf = props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />;
  return (
    <>
      <a href={`${base}/edit`}>Edit</a>{" "}
      {props.item.status !== "superseded" && (
        <form
          method="post"
          action={`${base}/${props.item.status === "active" ? "archive" : "restore"}`}
          class="inline"
        >
          {csrf}
          <button type="submit" class="quiet">
            {props.item.status === "active" ? "Archive" : "Restore"}
          </button>
        </form>
      )}{" "}
      <form method="post" action={`${base}/forget`} class="inline">
        {csrf}
        <label class="inline">
          <input type="checkbox" name="confirm" value={id} required /> sure
        </label>
        <button type="submit" class="danger">
          Forget
        </button>
      </form>
    </>
  );
}

export function MemoryPage(props: {
  filters: MemoryFilters;
  items: readonly MemoryItem[];
  total: number;
  candidates: readonly CandidateRow[];
  preview: { form: PreviewForm; result: PreviewResult | null };
  csrf: string | null;
  notice?: string;
  error?: string;
}) {
  const f = props.filters;
  return (
    <>
      <h1>Memory</h1>
      {props.notice && <p class="notice">{props.notice}</p>}
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <form class="filters" method="get">
        <label>
          Text
          <input type="search" name="text" value={f.text} />
        </label>
        <label>
          Chat
          <input name="chat" value={f.chat} placeholder="qq:group:…" />
        </label>
        <label>
          Scope
          <input name="scope" value={f.scope} placeholder="person:…" />
        </label>
        <Select label="Kind" name="kind" value={f.kind} options={MEMORY_KINDS} />
        <Select label="Sensitivity" name="sensitivity" value={f.sensitivity} options={SENSITIVITIES} />
        <Select
          label="Status"
          name="status"
          value={f.status}
          options={["active", "archived", "superseded"]}
        />
        <button type="submit">Filter</button>
      </form>
      <p class="muted">{props.total} items</p>
      <div class="scroll">
        <table id="memory-items">
          <thead>
            <tr>
              <th>Text</th>
              <th>Scope</th>
              <th>Kind</th>
              <th>Sensitivity</th>
              <th>Status</th>
              <th>Updated</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {props.items.map((item) => (
              <tr>
                <td>{item.text}</td>
                <td>{`${item.scope.type}:${item.scope.id}`}</td>
                <td>{item.kind}</td>
                <td>
                  <Sensitivity value={item.sensitivity} />
                </td>
                <td>{item.status}</td>
                <td>{formatTime(item.updatedAt)}</td>
                <td>
                  <Actions item={item} csrf={props.csrf} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2 id="preview">Context preview</h2>
      <p class="muted">What the bot would see if this sender said this text in this chat.</p>
      <form class="filters" method="get" action="/admin/memory#preview">
        <label>
          Chat
          <input name="pchat" value={props.preview.form.chat} placeholder="qq:group:…" required />
        </label>
        <label>
          Sender
          <input name="psender" value={props.preview.form.sender} placeholder="user id" />
        </label>
        <label>
          Text
          <input name="ptext" value={props.preview.form.text} required />
        </label>
        <button type="submit">Preview</button>
      </form>
      {props.preview.result &&
        ("error" in props.preview.result ? (
          <p class="error" role="alert">
            {props.preview.result.error}
          </p>
        ) : (
          <div class="scroll" id="preview-result">
            <p class="muted">Readable scopes: {props.preview.result.readable.join(", ")}</p>
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
                {props.preview.result.items.length === 0 && (
                  <tr>
                    <td colspan={5} class="muted">
                      Nothing recalled.
                    </td>
                  </tr>
                )}
                {props.preview.result.items.map((p) => (
                  <tr>
                    <td>{p.section}</td>
                    <td>{p.text}</td>
                    <td>{p.scope ?? "—"}</td>
                    <td>
                      <Sensitivity value={p.sensitivity} />
                    </td>
                    <td>{p.score === null ? "—" : p.score.toFixed(3)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}

      <h2>Dreaming candidates</h2>
      <DataTable
        headers={["When", "Chat", "Text", "Scope", "Sensitivity", "Decision"]}
        empty="No candidates."
        rows={props.candidates.map((c) => (
          <tr>
            <td>{formatTime(c.createdAt)}</td>
            <td>{c.chatKey}</td>
            <td>{c.text}</td>
            <td>{c.scope}</td>
            <td>
              <Sensitivity value={c.sensitivity} />
            </td>
            <td>
              {c.decision}
              {c.reason && <div class="muted">{c.reason}</div>}
            </td>
          </tr>
        ))}
      />
    </>
  );
}

export function MemoryEditPage(props: { item: MemoryItem; csrf: string | null; error?: string }) {
  const item = props.item;
  return (
    <>
      <h1>Edit memory item</h1>
      <p class="muted">
        {item.nodeId} · {`${item.scope.type}:${item.scope.id}`} · {item.status}
      </p>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <form method="post" action={`/admin/memory/${encodeURIComponent(item.nodeId)}/edit`} class="filters">
        {props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />}
        <label class="wide">
          Text
          <input name="text" value={item.text} required />
        </label>
        <label>
          Kind
          <select name="kind">
            {MEMORY_KINDS.map((k) => (
              <option value={k} selected={k === item.kind}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <label>
          Sensitivity
          <select name="sensitivity">
            {SENSITIVITIES.map((s) => (
              <option value={s} selected={s === item.sensitivity}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Importance
          <input
            name="importance"
            type="number"
            min="0"
            max="1"
            step="0.05"
            value={String(item.importance)}
          />
        </label>
        <label>
          Portable
          <input type="checkbox" name="portable" value="true" checked={item.portable} />
        </label>
        <button type="submit">Save</button>
      </form>
    </>
  );
}
