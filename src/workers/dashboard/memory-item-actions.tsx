/** One memory item's actions: edit, archive or restore, and forget (confirmed by a checkbox). */
import type { MemoryItem } from "../../domain/memory/memory";
import { CSRF_FIELD } from "../auth/csrf";

export function MemoryItemActions(props: { item: MemoryItem; csrf: string | null }) {
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
