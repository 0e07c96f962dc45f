/**
 * One memory item's actions: edit, move to another scope (a private or secret item into a
 * shared scope only with "share anyway"), archive or restore, and forget (confirmed by a checkbox).
 */
import type { MemoryItem } from "../../domain/memory/memory";
import { CSRF_FIELD } from "../auth/csrf";
import { ShareAnyway } from "./memory-add-section";

export function MemoryItemActions(props: { item: MemoryItem; csrf: string | null }) {
  const id = props.item.nodeId;
  const base = `/admin/memory/${encodeURIComponent(id)}`;
  const csrf = props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />;
  return (
    <>
      <a href={`${base}/edit`}>Edit</a>{" "}
      {props.item.status === "active" && (
        <form method="post" action={`${base}/move`} class="inline">
          {csrf}
          <input name="scope" required placeholder="move to scope" aria-label="move to scope" />
          <ShareAnyway />
          <button type="submit" class="quiet">
            Move
          </button>
        </form>
      )}{" "}
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
