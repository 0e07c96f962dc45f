/** The knowledge page's collections: every collection with its counts, and the new-collection form. */
import type { CollectionInfo } from "../../domain/knowledge/collection";
import { CSRF_FIELD } from "../auth/csrf";
import { DataTable } from "./data-table";
import { formatTime } from "./format";

export function CollectionsSection(props: { collections: readonly CollectionInfo[]; csrf: string | null }) {
  return (
    <>
      <h2>Collections</h2>
      <DataTable
        headers={["Collection", "Title", "Documents", "Passages", "Updated"]}
        empty="No collections yet."
        rows={props.collections.map((c) => (
          <tr>
            <td>
              <a href={`/admin/knowledge?collection=${encodeURIComponent(c.name)}`}>{c.name}</a>
            </td>
            <td>{c.title ?? "—"}</td>
            <td>{c.documents}</td>
            <td>{c.passages}</td>
            <td>{formatTime(c.updatedAt)}</td>
          </tr>
        ))}
      />
      <form class="filters" method="post" action="/admin/knowledge/collections">
        {props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />}
        <label>
          New collection
          <input name="name" placeholder="vue-docs" required />
        </label>
        <label>
          Title
          <input name="title" />
        </label>
        <button type="submit" class="quiet">
          Create
        </button>
      </form>
    </>
  );
}
