// `npm run akasha -- private-origin inspect|apply|rollback`: what was learned in a person's
// private chat before private-by-origin is re-marked private, and global items that came from a
// private chat are listed for the owner (docs/memory.md#private-origin-migration).
import { t } from "./i18n/lang.mjs";
import { loadTs, planCommand } from "./plan-command.mjs";

export function command(name = "private-origin") {
  return planCommand(name, {
    about: t("privateOrigin.about"),
    reviewHint: t("privateOrigin.reviewHint"),
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
