/** The knowledge page's collections: every collection with its counts, and the new-collection form. */

import type { CollectionInfo } from "../../domain/knowledge/collection";
import { CSRF_FIELD } from "../auth/csrf";
import { DataTable } from "./data-table";
import { formatTime } from "./format";
import { useT } from "./i18n/i18n";

export function CollectionsSection(props: { collections: readonly CollectionInfo[]; csrf: string | null }) {
  const t = useT();
  return (
    <>
      <h2>{t("kb.collections")}</h2>
      <DataTable
        headers={[
          t("kb.collection"),
          t("kb.title"),
          t("kb.documents"),
          t("kb.passages"),
          t("memory.updated"),
        ]}
        empty={t("kb.noCollections")}
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
          {t("kb.newCollection")}
          <input name="name" placeholder="vue-docs" required />
        </label>
        <label>
          {t("kb.title")}
          <input name="title" />
        </label>
        <button type="submit" class="quiet">
          {t("kb.create")}
        </button>
      </form>
    </>
  );
}
