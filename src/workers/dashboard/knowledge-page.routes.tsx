/**
 * The Knowledge page: collections, documents, the node tree and the search playground, read
 * through the same knowledge service as the /api/kb routes, so the page shows exactly what the
 * API answers. Uploads go from the browser straight to the import route (upload-script.ts).
 */
import { type Context, Hono } from "hono";
import type { DomainError } from "../../domain/kernel/result";
import { CreateCollectionBody, KnowledgeSearchBody } from "../admin-input/knowledge-input";
import { validate } from "../admin-input/validate";
import type { AppEnv } from "../app-env";
import type { Translate } from "./i18n/i18n";
import { KnowledgePage, type KnowledgeView } from "./knowledge-page";
import { pageContext } from "./page-context";
import { render } from "./page-render";
import { UPLOAD_SCRIPT } from "./upload-script";

/** A refusal as one line on the page. */
const said = (t: Translate, e: DomainError) =>
  e.kind === "invalid"
    ? `${e.field} ${e.reason}`
    : e.kind === "not-found"
      ? t("error.notFound", { what: e.what })
      : e.kind;

async function searched(
  c: Context<AppEnv>,
  query: string,
  selected: string,
): Promise<KnowledgeView["search"]> {
  const ask = validate(KnowledgeSearchBody, { query, ...(selected ? { collections: [selected] } : {}) });
  if (!ask.ok) return { query, answer: null, error: said(c.get("i18n").t, ask.error) };
  try {
    return { query, answer: await c.get("services").knowledge.search(ask.value) };
  } catch (e) {
    return { query, answer: null, error: String(e) };
  }
}

async function knowledgePage(c: Context<AppEnv>, extra: { notice?: string; error?: string } = {}) {
  const knowledge = c.get("services").knowledge;
  const q = c.req.query();
  const collections = await knowledge.collections();
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
    view.documents = (await knowledge.collection(view.selected))?.documents ?? null;
    const doc = view.documents?.find((d) => d.documentId === q.doc);
    if (doc) {
      const tree = await knowledge.readNode(doc.documentId, "subtree");
      if (tree) view.tree = { document: doc.sourceId, nodes: tree.related };
    }
  }
  if (view.search.query) view.search = await searched(c, view.search.query, selected);
  const title = c.get("i18n").t("nav.knowledge");
  return render(c, "/admin/knowledge", title, <KnowledgePage {...view} />, extra.error ? 400 : 200);
}

export const knowledgePageRoutes = new Hono<AppEnv>()
  .get("/", (c) => knowledgePage(c, c.req.query("notice") ? { notice: c.req.query("notice") as string } : {}))
  .post("/collections", async (c) => {
    const form = await c.req.parseBody();
    const name = typeof form.name === "string" ? form.name.trim() : "";
    const title = typeof form.title === "string" ? form.title.trim() : "";
    const body = validate(CreateCollectionBody, { name, ...(title ? { title } : {}) });
    if (!body.ok) return knowledgePage(c, { error: said(c.get("i18n").t, body.error) });
    const made = await c.get("services").knowledge.createCollection(body.value);
    if (!made.ok) return knowledgePage(c, { error: said(c.get("i18n").t, made.error) });
    const notice = c.get("i18n").t(made.value.created ? "kb.created" : "kb.exists", { name });
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
