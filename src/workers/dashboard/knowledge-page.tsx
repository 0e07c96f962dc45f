/**
 * Knowledge: the collections, a new collection, multi-file upload with a progress bar and a
 * result per file (upload-script.ts), a collection's document tree, and a search playground
 * showing what the pipeline returns with scores, `via` and citations. Each section is a
 * component of its own; this page puts them in order.
 */

import type { CollectionInfo, StoredDocument } from "../../domain/knowledge/collection";
import type { ContextNode } from "../../domain/retrieval/context-node";
import { useT } from "./i18n/i18n";
import { CollectionsSection } from "./knowledge-collections-section";
import { DocumentsSection, OutlineSection } from "./knowledge-documents-section";
import { type SearchAnswer, SearchSection } from "./knowledge-search-section";
import { UploadSection } from "./knowledge-upload-section";
import { PageNotices } from "./page-notices";

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

export function KnowledgePage(props: KnowledgeView) {
  const t = useT();
  return (
    <>
      <h1>{t("nav.knowledge")}</h1>
      <PageNotices notice={props.notice} error={props.error} />
      <CollectionsSection collections={props.collections} csrf={props.csrf} />

      <UploadSection collections={props.collections} selected={props.selected} csrf={props.csrf} />

      {props.documents && <DocumentsSection selected={props.selected} documents={props.documents} />}
      {props.tree && <OutlineSection document={props.tree.document} nodes={props.tree.nodes} />}

      <SearchSection selected={props.selected} search={props.search} />
    </>
  );
}
