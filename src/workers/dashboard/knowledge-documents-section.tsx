/** The knowledge page's documents of the selected collection, and one document's outline. */

import type { StoredDocument } from "../../domain/knowledge/collection";
import type { ContextNode } from "../../domain/retrieval/context-node";
import { DataTable } from "./data-table";
import { clip, formatTime } from "./format";
import { useT } from "./i18n/i18n";
import { TREE_DEPTHS } from "./styles";

export function DocumentsSection(props: { selected: string; documents: readonly StoredDocument[] }) {
  const t = useT();
  const sel = props.selected;
  return (
    <>
      <h2 id="documents">{t("kb.documentsIn", { collection: sel })}</h2>
      <DataTable
        headers={[t("kb.document"), t("kb.title"), t("kb.format"), t("kb.passages"), t("memory.updated")]}
        empty={t("kb.noDocuments")}
        rows={props.documents.map((d) => (
          <tr>
            <td>
              <a
                href={`/admin/knowledge?collection=${encodeURIComponent(sel)}&doc=${encodeURIComponent(d.documentId)}#tree`}
              >
                {d.sourceId}
              </a>
            </td>
            <td>{d.title ?? "—"}</td>
            <td>{d.format ?? "—"}</td>
            <td>{d.passages}</td>
            <td>{formatTime(d.updatedAt)}</td>
          </tr>
        ))}
      />
    </>
  );
}

/** A document's sections, indented by depth, each with how many passages it holds. */
export function OutlineSection(props: { document: string; nodes: readonly ContextNode[] }) {
  const t = useT();
  const depth0 = Math.min(...props.nodes.map((n) => n.path.length), 99);
  const sections = props.nodes.filter((n) => n.nodeType !== "passage");
  const passagesUnder = (id: string) =>
    props.nodes.filter((n) => n.parentId === id && n.nodeType === "passage").length;
  return (
    <>
      <h2 id="tree">{t("kb.outline", { document: props.document })}</h2>
      <ul class="tree" id="doc-tree">
        {sections.length === 0 && <li class="muted">{t("kb.noSections")}</li>}
        {sections.map((n) => (
          <li class={`depth-${Math.min(Math.max(n.path.length - depth0, 0), TREE_DEPTHS)}`}>
            {n.title ?? clip(n.rawText, 60)}{" "}
            <span class="muted">· {t("kb.passagesCount", { count: passagesUnder(n.nodeId) })}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
