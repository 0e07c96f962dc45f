/**
 * The knowledge page's search playground: what the pipeline returns for a query over the
 * selected collection (or all), with scores, `via` and citations.
 */

import { type Citation, formatCitation } from "../../domain/retrieval/citation";
import { DataTable } from "./data-table";
import { clip } from "./format";
import { useT } from "./i18n/i18n";

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

function SearchResults(props: { answer: SearchAnswer }) {
  const t = useT();
  return (
    <div id="search-results">
      <p class="muted">{t("kb.strategy", { strategy: props.answer.strategy })}</p>
      <DataTable
        headers={["#", t("kb.score"), t("kb.via"), t("kb.citation"), t("memory.text")]}
        empty={t("kb.nothing")}
        rows={props.answer.items.map((it, i) => (
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
  );
}

export function SearchSection(props: {
  selected: string;
  search: { query: string; answer: SearchAnswer | null; error?: string };
}) {
  const t = useT();
  const sel = props.selected;
  return (
    <>
      <h2 id="search">{t("kb.playground")}</h2>
      <form class="filters" method="get" action="/admin/knowledge#search">
        <input type="hidden" name="collection" value={sel} />
        <label>
          {t("kb.query")}
          <input type="search" name="q" value={props.search.query} required />
        </label>
        <button type="submit">{t("kb.searchIn", { collection: sel || t("kb.allCollections") })}</button>
      </form>
      {props.search.error && (
        <p class="error" role="alert">
          {props.search.error}
        </p>
      )}
      {props.search.answer && <SearchResults answer={props.search.answer} />}
    </>
  );
}
