// `npm run akasha -- sensitivity-backfill inspect|apply|rollback`: memory that is private only
// because private used to be the default becomes public, the new default (docs/memory.md#sensitivity-backfill).
import { t } from "./i18n/lang.mjs";
import { loadTs, planCommand } from "./plan-command.mjs";

export function command(name = "sensitivity-backfill") {
  return planCommand(name, {
    about: t("sensitivityBackfill.about"),
    describe: (e) => `${e.nodeId} [${e.kind}] ${e.scope} private → public  ${e.text.slice(0, 40)}`,
    load: async () => {
      const m = await loadTs("src/domain/memory/sensitivity-backfill.ts");
      const sql = await loadTs("src/adapters/d1/owner-migrations/sensitivity-backfill-sql.ts");
      return {
        inspectSql: sql.BACKFILL_INSPECT_SQL,
        plan: m.planSensitivityBackfill,
        read: m.readBackfillPlan,
        select: m.selectBackfill,
        applySql: sql.backfillApplySql,
        appliedSql: sql.backfillAppliedSql,
        rollbackSql: sql.backfillRollbackSql,
        restoredSql: sql.backfillRestoredSql,
      };
    },
  });
}
