// The cron's wide-character counts for knowledge rows written before the import kept them
// (migrations 0220, 0221): every such row gets the count of its own text, a row whose text
// changes while it is counted is left for later rather than given a stale count, no row can
// hold the backfill in place, and rows outside the collections are left alone.
import { env } from "cloudflare:workers";
import { runWideCharsBackfill, wideCharsStep } from "@src/adapters/d1/d1-wide-chars-backfill";
import { wideChars } from "@src/domain/text/token-estimate";
import { describe, it } from "vitest";
import { seededCollection } from "../../support/knowledge-api";

const TEXT = (i: number) => `第${i}段：稻妻城的故事，讲述当地居民流传已久的传说与风俗。Raiden ${i}`;

/** A collection whose rows look as they did before migration 0220: no counts. */
async function countlessCollection(prefix: string, passages = 12) {
  const name = await seededCollection(prefix, 50, [
    {
      name: "a.md",
      content: `# 稻妻\n\n${Array.from({ length: passages }, (_, i) => TEXT(i)).join("\n\n")}`,
    },
  ]);
  await env.DB.prepare("UPDATE nodes SET wide_chars = NULL WHERE scope_type = 'collection' AND scope_id = ?1")
    .bind(name)
    .run();
  return name;
}

const rowsOf = async (name: string) =>
  (
    await env.DB.prepare(
      "SELECT node_id, raw_text, wide_chars FROM nodes WHERE scope_type = 'collection' AND scope_id = ?1 ORDER BY seq",
    )
      .bind(name)
      .all<{ node_id: string; raw_text: string; wide_chars: number | null }>()
  ).results;

/** Everything still to count, whatever collection it is in (tests share the database). */
const missing = async () =>
  (
    await env.DB.prepare(
      "SELECT count(*) AS n FROM nodes WHERE wide_chars IS NULL AND scope_type = 'collection'",
    ).first<{ n: number }>()
  )?.n;

/** The database, with `before` run ahead of every batch (a writer racing the step). */
function racing(before: () => Promise<unknown>): D1Database {
  return {
    prepare: (sql: string) => env.DB.prepare(sql),
    batch: async (statements: D1PreparedStatement[]) => {
      await before();
      return env.DB.batch(statements);
    },
  } as unknown as D1Database;
}

describe("wide-character backfill", () => {
  it("counts every row still missing its count, in steps, and then has nothing to read", async ({
    expect,
  }) => {
    const name = await countlessCollection("wide-all");
    const before = await rowsOf(name);
    expect(before.length).toBeGreaterThan(3);
    expect(before.every((r) => r.wide_chars === null)).toBe(true);
    const run = await runWideCharsBackfill(env.DB, 1_000, 3);
    expect(run.done).toBe(true);
    expect(run.steps).toBeGreaterThan(1);
    expect(run.counted).toBeGreaterThanOrEqual(before.length);
    for (const r of await rowsOf(name)) expect(r.wide_chars).toBe(wideChars(r.raw_text));
    expect(await missing()).toBe(0);
    expect(await wideCharsStep(env.DB)).toEqual({ rows: 0, counted: 0, last: 0, done: true });
  });

  it("stops after the steps it is given, and the next run goes on", async ({ expect }) => {
    const name = await countlessCollection("wide-steps");
    const first = await runWideCharsBackfill(env.DB, 2, 2);
    expect(first).toMatchObject({ counted: 4, steps: 2, done: false });
    expect((await rowsOf(name)).filter((r) => r.wide_chars !== null)).toHaveLength(4);
    const rest = await runWideCharsBackfill(env.DB, 1_000, 2);
    expect(rest.done).toBe(true);
    expect(await missing()).toBe(0);
  });

  it("leaves a row whose text changed while it was counted for a later run", async ({ expect }) => {
    const name = await countlessCollection("wide-race");
    const [target] = await rowsOf(name);
    if (!target) throw new Error("no rows");
    const changed = "a short Latin note";
    let raced = false;
    const db = racing(async () => {
      if (raced) return;
      raced = true;
      await env.DB.prepare("UPDATE nodes SET raw_text = ?2 WHERE node_id = ?1")
        .bind(target.node_id, changed)
        .run();
    });
    await runWideCharsBackfill(db, 1_000, 100);
    const after = await rowsOf(name);
    // Counted from the Chinese text it had when read, it would be too large for its new text.
    expect(after.find((r) => r.node_id === target.node_id)?.wide_chars).toBeNull();
    expect(
      after.filter((r) => r.node_id !== target.node_id).every((r) => r.wide_chars === wideChars(r.raw_text)),
    ).toBe(true);
    await runWideCharsBackfill(env.DB, 1_000, 100);
    expect((await rowsOf(name)).find((r) => r.node_id === target.node_id)?.wide_chars).toBe(0);
  });

  it("is not held in place by rows whose count never lands", async ({ expect }) => {
    const name = await countlessCollection("wide-stuck");
    const stuck = (await rowsOf(name)).slice(0, 2).map((r) => r.node_id);
    expect(stuck).toHaveLength(2);
    let n = 0;
    // Their texts change before every write, and they fill a whole step of two rows: from the
    // start of what is left every time, the backfill would read only them.
    const db = racing(() =>
      env.DB.batch(
        stuck.map((id) =>
          env.DB.prepare("UPDATE nodes SET raw_text = ?2 WHERE node_id = ?1").bind(id, `note ${n++}`),
        ),
      ),
    );
    const run = await runWideCharsBackfill(db, 100, 2);
    expect(run.done).toBe(true);
    const after = await rowsOf(name);
    expect(after.filter((r) => r.wide_chars === null).map((r) => r.node_id)).toEqual(stuck);
  });

  it("leaves rows outside the collections alone", async ({ expect }) => {
    await countlessCollection("wide-scope");
    const memory = await env.DB.prepare(
      "SELECT count(*) AS n FROM nodes WHERE scope_type <> 'collection' AND wide_chars IS NULL",
    ).first<{ n: number }>();
    await env.DB.prepare(
      `INSERT INTO nodes (node_id, node_type, source_type, scope_type, scope_id, raw_text, retrieval_text,
         retrieval_tokens, content_hash, created_at, updated_at)
       VALUES ('m_wide_scope', 'memory', 'human', 'chat', 'qq:group:wide', '稻妻', '稻妻', '稻妻', 'h', 1, 1)`,
    ).run();
    await runWideCharsBackfill(env.DB, 1_000);
    const row = await env.DB.prepare(
      "SELECT wide_chars AS w FROM nodes WHERE node_id = 'm_wide_scope'",
    ).first<{
      w: number | null;
    }>();
    expect(row?.w).toBeNull();
    const after = await env.DB.prepare(
      "SELECT count(*) AS n FROM nodes WHERE scope_type <> 'collection' AND wide_chars IS NULL",
    ).first<{ n: number }>();
    expect(after?.n).toBe((memory?.n ?? 0) + 1);
  });
});
