/**
 * Automatic knowledge recall before the model runs (off by default): the same pipeline as
 * kb_search with the stricter, smaller `knowledge.autoRecall` profile, so a bot that does
 * not think of searching still sees the one or two passages that clearly match.
 */
import { profileOptions, readableCollections, searchKnowledge } from "../knowledge/knowledge-search";
import { formatCitation } from "../retrieval/citation";
import type { ContextProvider } from "./context-provider";
import { turnSearchQuery } from "./turn-query-rewrite";

export const knowledgeRecall: ContextProvider = {
  name: "knowledge",
  async collect(ctx, services) {
    const profile = ctx.settings.knowledge.autoRecall;
    const kb = services.knowledge;
    if (!profile.enabled || !kb || ctx.text.trim() === "") return null;
    const collections = await readableCollections(ctx.settings.knowledge, ctx.chat.key, () =>
      kb.listCollections(),
    );
    if (collections.length === 0) return null;
    const result = await searchKnowledge(kb.retrieval(ctx.settings.knowledge), {
      query: (await turnSearchQuery(ctx, services, ctx.text)).query,
      collections,
      options: profileOptions(profile),
    });
    const items = result.items.map((it) => ({
      source: "knowledge",
      text: it.text,
      citation: formatCitation(it.citation),
    }));
    return items.length === 0 ? null : { title: "知识库", items };
  },
};
