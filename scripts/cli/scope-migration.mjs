// `npm run akasha -- scope-migration inspect|apply|rollback`: moves global memory that
// structured evidence ties to exactly one chat into that chat's scope (docs/memory.md#scope-migration).
import { t } from "./i18n/lang.mjs";
import { loadTs, planCommand } from "./plan-command.mjs";

export function command(name = "scope-migration") {
  return planCommand(name, {
    about: t("scopeMigration.about"),
    reviewHint: t("scopeMigration.reviewHint"),
    describe: (e) => `${e.nodeId} [${e.kind}] global → chat:${e.to}  ${e.text.slice(0, 40)}`,
    load: async () => {
      const m = await loadTs("src/domain/memory/scope-migration.ts");
      const sql = await loadTs("src/adapters/d1/owner-migrations/scope-migration-sql.ts");
      return {
        inspectSql: sql.INSPECT_SQL,
        plan: m.planScopeMigration,
        read: m.readScopeMigrationPlan,
        select: m.selectScopeMigration,
        applySql: sql.scopeMigrationApplySql,
        appliedSql: sql.scopeMigrationAppliedSql,
        rollbackSql: sql.scopeMigrationRollbackSql,
        restoredSql: sql.scopeMigrationRestoredSql,
      };
    },
  });
}
