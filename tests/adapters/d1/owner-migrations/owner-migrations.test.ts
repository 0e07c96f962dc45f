// The owner migrations' SQL against real local D1: plan from the rows inspect reads, apply
// the approved rows, check what recall sees, roll back. The CLI only ferries this SQL
// through `wrangler d1 execute`.
import { env } from "cloudflare:workers";
import {
  INSPECT_SQL,
  scopeMigrationAppliedSql,
  scopeMigrationApplySql,
  scopeMigrationRestoredSql,
  scopeMigrationRollbackSql,
} from "@src/adapters/d1/owner-migrations/scope-migration-sql";
import {
  BACKFILL_INSPECT_SQL,
  backfillAppliedSql,
  backfillApplySql,
  backfillRollbackSql,
} from "@src/adapters/d1/owner-migrations/sensitivity-backfill-sql";
import type { Applied } from "@src/domain/memory/owner-plan";
import { parseScopeKey, type Scope } from "@src/domain/memory/scope";
import {
  type GlobalMemoryRow,
  planScopeMigration,
  readScopeMigrationPlan,
  selectScopeMigration,
} from "@src/domain/memory/scope-migration";
import { planSensitivityBackfill, type SensitivityRow } from "@src/domain/memory/sensitivity-backfill";
import { indexText } from "@src/domain/text/search-tokens";
import { describe, it } from "vitest";
import { memoryStore, nodeIdsOf, uid } from "../../../support/memory";

const s = (key: string) => parseScopeKey(key) as Scope;
const backup = { kind: "local-copy" as const, path: "/tmp/x", at: "t" };

async function legacyRow(
  id: string,
  kind: string,
  text: string,
  provenance: unknown,
  extra: Record<string, unknown> = {},
) {
  await env.DB.prepare(
    `INSERT INTO nodes (node_id, node_type, source_type, scope_type, scope_id, kind, raw_text, retrieval_text, retrieval_tokens,
       metadata, provenance, sensitivity, sensitivity_source, content_hash, created_at, updated_at)
     VALUES (?, 'memory', 'conversation', ?, ?, ?, ?, ?, ?, '{}', ?, ?, ?, ?, 1000, 1000)`,
  )
    .bind(
      id,
      extra.scope_type ?? "global",
      extra.scope_id ?? "__global__",
      kind,
      text,
      text,
      indexText(text),
      JSON.stringify(provenance),
      extra.sensitivity ?? "public",
      extra.sensitivity_source ?? "default",
      `h-${id}`,
    )
    .run();
}

const ids = nodeIdsOf;

const exec = (sql: string) => env.DB.exec(sql);

describe("scope-migration against D1", () => {
  it("moves approved rows into their chat, leaves the rest, skips stale rows and rolls back", async ({
    expect,
  }) => {
    const u = uid();
    const chatA = `qq:private:A${u}`;
    const word = `猫${u}`;
    await legacyRow(`pref${u}`, "preference", `小明喜欢${word}`, { session_id: chatA });
    await legacyRow(`stale${u}`, "fact", `小明养了${word}`, { session_id: chatA });
    await legacyRow(`dec${u}`, "decision", `决定收养${word}`, { session_id: chatA });
    await legacyRow(`none${u}`, "fact", `有人提过${word}`, {});

    const rows = (await env.DB.prepare(INSPECT_SQL).all<GlobalMemoryRow>()).results.filter((r) =>
      r.node_id.endsWith(u),
    );
    const planned = planScopeMigration(rows, { createdAt: "now", database: "local" });
    expect(planned.entries.map((e) => [e.nodeId.replace(u, ""), e.action])).toEqual([
      ["pref", "migrate"],
      ["stale", "migrate"],
      ["dec", "keep"],
      ["none", "keep"],
    ]);
    // The owner approves both migrate rows; one of them changes before the apply.
    const approved = JSON.parse(JSON.stringify(planned));
    for (const e of approved.entries) if (e.action === "migrate") e.approval = "approved";
    const plan = readScopeMigrationPlan(approved, "local");
    if (!plan.ok) throw new Error(plan.error);
    await env.DB.prepare("UPDATE nodes SET importance = 0.9, updated_at = 2000 WHERE node_id = ?")
      .bind(`stale${u}`)
      .run();

    const selected = selectScopeMigration(plan.value, { applyAllSafe: false });
    const stamp = 5_000_000;
    await exec(scopeMigrationApplySql(selected, stamp));
    const applied = await ids(scopeMigrationAppliedSql(selected, stamp));
    expect(applied).toEqual([`pref${u}`]);

    const search = (scopes: string[]) =>
      memoryStore().search({ text: word, scopes: scopes.map(s), limit: 10 });
    expect((await search([`chat:${chatA}`])).map((h) => h.nodeId)).toEqual([`pref${u}`]);
    expect(
      (await search([`chat:qq:private:B${u}`, "global:__global__"])).map((h) => h.nodeId).sort(),
    ).toEqual([`stale${u}`, `dec${u}`, `none${u}`].sort());
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE dedupe_key = ?")
      .bind(`scope-migration:apply:${stamp}`)
      .first();
    expect(audit).toEqual({ action: "scope_migration_apply" });

    const record: Applied = { at: "t", stamp, nodeIds: applied, skipped: [`stale${u}`], backup };
    const rollback = scopeMigrationRollbackSql({ ...plan.value, applied: record }, 6_000_000);
    if (!rollback.ok) throw new Error(rollback.error);
    await exec(rollback.value);
    expect(await ids(scopeMigrationRestoredSql({ ...plan.value, applied: record }))).toEqual([`pref${u}`]);
    expect(await search([`chat:${chatA}`])).toEqual([]);
    const back = await env.DB.prepare("SELECT scope_type, updated_at FROM nodes WHERE node_id = ?")
      .bind(`pref${u}`)
      .first();
    expect(back).toEqual({ scope_type: "global", updated_at: 1000 });
  });

  it("leaves a row alone in rollback when it changed after the apply", async ({ expect }) => {
    const u = uid();
    await legacyRow(`p${u}`, "preference", "小红喜欢狗", { session_id: `qq:private:R${u}` });
    const rows = (await env.DB.prepare(INSPECT_SQL).all<GlobalMemoryRow>()).results.filter((r) =>
      r.node_id.endsWith(u),
    );
    const plan = planScopeMigration(rows, { createdAt: "now", database: "local" });
    const selected = selectScopeMigration(plan, { applyAllSafe: true });
    await exec(scopeMigrationApplySql(selected, 7_000_000));
    await env.DB.prepare("UPDATE nodes SET updated_at = 7000001 WHERE node_id = ?").bind(`p${u}`).run();
    const record: Applied = { at: "t", stamp: 7_000_000, nodeIds: [`p${u}`], skipped: [], backup };
    const rollback = scopeMigrationRollbackSql({ ...plan, applied: record }, 8_000_000);
    if (!rollback.ok) throw new Error(rollback.error);
    await exec(rollback.value);
    expect(await ids(scopeMigrationRestoredSql({ ...plan, applied: record }))).toEqual([]);
  });
});

describe("sensitivity-backfill against D1", () => {
  it("makes only default-sourced private items public, so soft scope can reach them, and rolls back", async ({
    expect,
  }) => {
    const u = uid();
    const word = `歌${u}`;
    const scope = { scope_type: "chat", scope_id: `qq:group:S${u}` };
    await legacyRow(
      `def${u}`,
      "fact",
      `${word} 默认私密`,
      {},
      { ...scope, sensitivity: "private", sensitivity_source: "default" },
    );
    await legacyRow(
      `dream${u}`,
      "fact",
      `${word} 梦里私密`,
      {},
      { ...scope, sensitivity: "private", sensitivity_source: "dream" },
    );
    await legacyRow(
      `exp${u}`,
      "fact",
      `${word} 明说私密`,
      {},
      { ...scope, sensitivity: "private", sensitivity_source: "explicit" },
    );
    const rows = (await env.DB.prepare(BACKFILL_INSPECT_SQL).all<SensitivityRow>()).results.filter((r) =>
      r.node_id.endsWith(u),
    );
    const plan = planSensitivityBackfill(rows, { createdAt: "now", database: "local" });
    expect(plan.entries.map((e) => e.nodeId)).toEqual([`def${u}`]);

    const soft = () =>
      memoryStore().search({ text: word, scopes: [s(`chat:qq:group:OTHER${u}`)], soft: true, limit: 10 });
    expect(await soft()).toEqual([]);
    await exec(backfillApplySql(plan.entries, 9_000_000));
    const applied = await ids(backfillAppliedSql(plan.entries, 9_000_000));
    expect(applied).toEqual([`def${u}`]);
    expect((await soft()).map((h) => h.nodeId)).toEqual([`def${u}`]);

    const rollback = backfillRollbackSql(
      { ...plan, applied: { at: "t", stamp: 9_000_000, nodeIds: applied, skipped: [], backup } },
      9_500_000,
    );
    if (!rollback.ok) throw new Error(rollback.error);
    await exec(rollback.value);
    expect(await soft()).toEqual([]);
  });
});
