/** The knowledge page's documents of the selected collection, and one document's outline. */
import type { StoredDocument } from "../../domain/knowledge/collection";
import type { ContextNode } from "../../domain/retrieval/context-node";
import { DataTable } from "./data-table";
import { clip, formatTime } from "./format";
import { TREE_DEPTHS } from "./styles";

export function DocumentsSection(props: { selected: string; documents: readonly StoredDocument[] }) {
  const sel = props.selected;
  return (
    <>
      <h2 id="documents">Documents in {sel}</h2>
      <DataTable
        headers={["Document", "Title", "Format", "Passages", "Updated"]}
        empty="No documents in this collection."
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
  const depth0 = Math.min(...props.nodes.map((n) => n.path.length), 99);
  const sections = props.nodes.filter((n) => n.nodeType !== "passage");
  const passagesUnder = (id: string) =>
    props.nodes.filter((n) => n.parentId === id && n.nodeType === "passage").length;
  return (
    <>
      <h2 id="tree">Outline of {props.document}</h2>
      <ul class="tree" id="doc-tree">
        {sections.length === 0 && <li class="muted">No sections: the document is passages only.</li>}
        {sections.map((n) => (
          <li class={`depth-${Math.min(Math.max(n.path.length - depth0, 0), TREE_DEPTHS)}`}>
            {n.title ?? clip(n.rawText, 60)} <span class="muted">· {passagesUnder(n.nodeId)} passages</span>
          </li>
        ))}
      </ul>
    </>
  );
}
