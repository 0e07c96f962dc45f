/**
 * The follow-up rewrite as a turn runs it (kb_search, the automatic knowledge recall): the
 * chat's model, billed to the chat, checked against the turn's spend gate with everything the
 * turn has spent so far, and recorded with the turn's usage. Outside a turn (the context
 * preview) there is no usage sink, and the deterministic fusion is used.
 */
import { type RewrittenQuery, rewriteFollowUp } from "../knowledge/query-rewrite";
import type { TurnContext } from "./turn-context";
import type { TurnServices } from "./turn-services";

export function turnSearchQuery(
  ctx: TurnContext,
  services: TurnServices,
  question: string,
): Promise<RewrittenQuery> {
  const { usage, after, spend } = services;
  const deps =
    usage && after
      ? {
          model: services.model,
          clock: services.clock,
          after,
          chatKey: ctx.chat.key,
          record: (u: Parameters<typeof usage.record>[0]) => usage.record(u),
          ...(spend ? { mayCall: async () => (await spend.check(usage.spent())).allowed } : {}),
        }
      : null;
  return rewriteFollowUp(deps, ctx.settings.queryRewrite, question, ctx.recent);
}
