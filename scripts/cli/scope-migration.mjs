// `npm run akasha -- scope-migration inspect|apply|rollback`: moves global memory that
// structured evidence ties to exactly one chat into that chat's scope (docs/memory.md#scope-migration).
import { loadTs, planCommand } from "./plan-command.mjs";

export const summary = "move chat-specific global memory into its chat's scope (inspect/apply/rollback)";

export function command(name = "scope-migration") {
  return planCommand(name, {
    summary,
    about:
      "Plans: chat-scoped kinds whose evidence names one typed chat → migrate; several chats → manual_review\n" +
      '(approve it and set "to" to one of its chats); global kinds, no evidence or only legacy sessions → keep.',
    reviewHint: 'manual_review rows also need "to": one of their "chats"',
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
