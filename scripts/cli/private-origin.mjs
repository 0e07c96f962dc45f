// `npm run akasha -- private-origin inspect|apply|rollback`: what was learned in a person's
// private chat before private-by-origin is re-marked private, and global items that came from a
// private chat are listed for the owner (docs/memory.md#private-origin-migration).
import { loadTs, planCommand } from "./plan-command.mjs";

export const summary = "re-mark memory learned in private chats as private (inspect/apply/rollback)";

export function command(name = "private-origin") {
  return planCommand(name, {
    summary,
    about:
      "Plans every public memory item or summary whose evidence (provenance.session, or its chat scope) names a\n" +
      "private chat: make_private → private, source 'origin' (--apply-all-safe applies these); review_global →\n" +
      "a global item from a private chat, moved into that chat's scope as private only when approved.",
    reviewHint: "review_global rows are global items learned in a private chat: approve each one to move",
    describe: (e) =>
      `${e.nodeId} [${e.kind}] ${e.scope} public → ${e.action === "review_global" ? `chat:${e.chat} ` : ""}private  ${e.text.slice(0, 40)}`,
    load: async () => {
      const m = await loadTs("src/domain/memory/private-origin.ts");
      const sql = await loadTs("src/adapters/d1/owner-migrations/private-origin-sql.ts");
      return {
        inspectSql: sql.ORIGIN_INSPECT_SQL,
        plan: m.planPrivateOrigin,
        read: m.readPrivateOriginPlan,
        select: m.selectPrivateOrigin,
        applySql: sql.originApplySql,
        appliedSql: sql.originAppliedSql,
        rollbackSql: sql.originRollbackSql,
        restoredSql: sql.originRestoredSql,
      };
    },
  });
}
