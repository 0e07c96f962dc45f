/**
 * The collections this chat can search, listed in the prompt with their document counts and a
 * few document titles, so the model knows when kb_search is worth calling. Only collections
 * readable in this chat (settings, never the model) are named.
 */
import { readableCollections } from "../knowledge/knowledge-search";
import type { ContextProvider } from "./context-provider";

/** Collections listed at most; a few titles each keep the block small. */
const MAX_COLLECTIONS = 8;
const MAX_TITLES = 6;

export const knowledgeCatalogue: ContextProvider = {
  name: "knowledge-catalogue",
  async collect(ctx, services) {
    const kb = services.knowledge;
    if (!kb) return null;
    const readable = await readableCollections(ctx.settings.knowledge, ctx.chat.key, () =>
      kb.listCollections(),
    );
    if (readable.length === 0) return null;
    const admin = kb.admin(ctx.settings.knowledge);
    const wanted = new Set(readable);
    const infos = (await admin.listCollections())
      .filter((c) => wanted.has(c.name) && c.documents > 0)
      .slice(0, MAX_COLLECTIONS);
    const items = [];
    for (const c of infos) {
      const docs = await admin.listDocuments(c.name);
      const titles = docs
        .slice(0, MAX_TITLES)
        .map((d) => d.title ?? d.sourceId)
        .join("、");
      const more = docs.length > MAX_TITLES ? " 等" : "";
      items.push({
        source: "knowledge-catalogue",
        text: `${c.name}${c.title ? `（${c.title}）` : ""}：${c.documents} 篇文档，如 ${titles}${more}`,
        citation: `集合 ${c.name}`,
      });
    }
    return items.length === 0 ? null : { title: "可以用 kb_search 检索的知识库", items };
  },
};
