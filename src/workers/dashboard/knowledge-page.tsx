/**
 * Knowledge: the collections, a new collection, multi-file upload with a progress bar and a
 * result per file (upload-script.ts), a collection's document tree, and a search playground
 * showing what the pipeline returns with scores, `via` and citations.
 */
import type { CollectionInfo, StoredDocument } from "../../domain/knowledge/collection";
import { type Citation, formatCitation } from "../../domain/retrieval/citation";
import type { ContextNode } from "../../domain/retrieval/context-node";
import { CSRF_FIELD } from "../auth/csrf";
import { DataTable } from "./data-table";
import { formatTime } from "./format";
import { TREE_DEPTHS } from "./styles";

export type SearchAnswer = {
  strategy: string;
  items: {
    citation: Citation;
    via: string;
    score: number;
    title: string | null;
    text: string;
  }[];
};

export type KnowledgeView = {
  collections: readonly CollectionInfo[];
  selected: string;
  documents: readonly StoredDocument[] | null;
  tree: { document: string; nodes: readonly ContextNode[] } | null;
  search: { query: string; answer: SearchAnswer | null; error?: string };
  csrf: string | null;
  notice?: string;
  error?: string;
};

const clip = (text: string, n: number) =>
  [...text].length > n ? `${[...text].slice(0, n).join("")}…` : text;

function Tree(props: { document: string; nodes: readonly ContextNode[] }) {
  const depth0 = Math.min(...props.nodes.map((n) => n.path.length), 99);
  const sections = props.nodes.filter((n) => n.nodeType !== "passage");
  const passagesUnder = (id: string) =>
    props.nodes.filter((n) => n.parentId === id && n.nodeType === "passage").length;
  return (
    <ul class="tree" id="doc-tree">
      {sections.length === 0 && <li class="muted">No sections: the document is passages only.</li>}
      {sections.map((n) => (
        <li class={`depth-${Math.min(Math.max(n.path.length - depth0, 0), TREE_DEPTHS)}`}>
          {n.title ?? clip(n.rawText, 60)} <span class="muted">· {passagesUnder(n.nodeId)} passages</span>
        </li>
      ))}
    </ul>
  );
}

export function KnowledgePage(props: KnowledgeView) {
  const sel = props.selected;
  const csrf = props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />;
  const answer = props.search.answer;
  return (
    <>
      <h1>Knowledge</h1>
      {props.notice && <p class="notice">{props.notice}</p>}
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
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
        {csrf}
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

      <h2>Upload</h2>
      <form id="upload" data-csrf={props.csrf ?? ""}>
        <div class="filters">
          <label>
            Into collection
            <select name="collection">
              {props.collections.map((c) => (
                <option value={c.name} selected={c.name === sel}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Files (up to 20, 25 MiB each)
            <input type="file" id="files" name="files" multiple />
          </label>
          <button type="submit">Upload</button>
        </div>
        <div id="drop" class="drop">
          Drop files here: .md, .txt, .html, .pdf, .docx, .csv, .tsv, .json, .jsonl
        </div>
        <ul id="uploads" class="uploads" aria-live="polite" />
      </form>
      <script src="/admin/upload.js" defer />

      {props.documents && (
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
      )}
      {props.tree && (
        <>
          <h2 id="tree">Outline of {props.tree.document}</h2>
          <Tree document={props.tree.document} nodes={props.tree.nodes} />
        </>
      )}

      <h2 id="search">Search playground</h2>
      <form class="filters" method="get" action="/admin/knowledge#search">
        <input type="hidden" name="collection" value={sel} />
        <label>
          Query
          <input type="search" name="q" value={props.search.query} required />
        </label>
        <button type="submit">Search {sel || "all collections"}</button>
      </form>
      {props.search.error && (
        <p class="error" role="alert">
          {props.search.error}
        </p>
      )}
      {answer && (
        <div id="search-results">
          <p class="muted">Strategy: {answer.strategy}</p>
          <DataTable
            headers={["#", "Score", "Via", "Citation", "Text"]}
            empty="Nothing found."
            rows={answer.items.map((it, i) => (
              <tr>
                <td>{i + 1}</td>
                <td>{it.score.toFixed(3)}</td>
                <td>
                  <span class="tag">{it.via}</span>
                </td>
                <td>
                  <code>{formatCitation(it.citation)}</code>
                </td>
                <td>
                  {it.title && <b>{it.title} </b>}
                  {clip(it.text, 240)}
                </td>
              </tr>
            ))}
          />
        </div>
      )}
    </>
  );
}
