/**
 * The Knowledge page: what it shows comes from the /api/kb routes themselves (collections,
 * documents, node tree, search), so the page shows exactly what the API answers. Uploads go
 * from the browser straight to the import route (upload-script.ts).
 */
import { type Context, Hono } from "hono";
import type { CollectionInfo, StoredDocument } from "../../domain/knowledge/collection";
import type { ContextNode } from "../../domain/retrieval/context-node";
import type { AppEnv } from "../app-env";
import { callApi } from "./admin-api";
import { KnowledgePage, type KnowledgeView, type SearchAnswer } from "./knowledge-page";
import { pageContext } from "./page-context";
import { render } from "./page-render";
import { UPLOAD_SCRIPT } from "./upload-script";

async function knowledgePage(c: Context<AppEnv>, extra: { notice?: string; error?: string } = {}) {
  const q = c.req.query();
  const listed = await callApi<{ collections: CollectionInfo[] }>(c, "GET", "/kb/collections");
  const collections = listed.ok ? listed.value.collections : [];
  const selected = q.collection && collections.some((x) => x.name === q.collection) ? q.collection : "";
  const view: KnowledgeView = {
    collections,
    selected: selected || (collections[0]?.name ?? ""),
    documents: null,
    tree: null,
    search: { query: q.q ?? "", answer: null },
    csrf: (await pageContext(c)).csrf,
    ...extra,
  };
  if (view.selected) {
    const docs = await callApi<{ documents: StoredDocument[] }>(
      c,
      "GET",
      `/kb/collections/${encodeURIComponent(view.selected)}`,
    );
    if (docs.ok) view.documents = docs.value.documents;
    const doc = view.documents?.find((d) => d.documentId === q.doc);
    if (doc) {
      const tree = await callApi<{ node: ContextNode; related: ContextNode[] }>(
        c,
        "GET",
        `/kb/nodes/${encodeURIComponent(doc.documentId)}?mode=subtree`,
      );
      if (tree.ok) view.tree = { document: doc.sourceId, nodes: tree.value.related };
    }
  }
  if (view.search.query) {
    const found = await callApi<SearchAnswer>(c, "POST", "/kb/search", {
      query: view.search.query,
      ...(selected ? { collections: [selected] } : {}),
    });
    view.search = found.ok
      ? { query: view.search.query, answer: found.value }
      : { query: view.search.query, answer: null, error: found.error };
  }
  return render(c, "/admin/knowledge", "Knowledge", <KnowledgePage {...view} />, extra.error ? 400 : 200);
}

export const knowledgePageRoutes = new Hono<AppEnv>()
  .get("/", (c) => knowledgePage(c, c.req.query("notice") ? { notice: c.req.query("notice") as string } : {}))
  .post("/collections", async (c) => {
    const form = await c.req.parseBody();
    const name = typeof form.name === "string" ? form.name.trim() : "";
    const title = typeof form.title === "string" ? form.title.trim() : "";
    const made = await callApi<{ created: boolean }>(c, "POST", "/kb/collections", {
      name,
      ...(title ? { title } : {}),
    });
    if (!made.ok) return knowledgePage(c, { error: made.error });
    const notice = made.value.created ? `Created ${name}.` : `${name} already exists.`;
    return c.redirect(
      `/admin/knowledge?collection=${encodeURIComponent(name)}&notice=${encodeURIComponent(notice)}`,
      303,
    );
  });

/** The upload script, served under the admin guard like the page that uses it. */
export const uploadScript = (c: Context<AppEnv>) =>
  c.body(UPLOAD_SCRIPT, 200, {
    "content-type": "text/javascript; charset=utf-8",
    "cache-control": "max-age=300",
  });
