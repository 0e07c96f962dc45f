// Own file: identity with a declared person is set through the stored settings, which every
// test of a file shares. Items learned in a private chat before private-by-origin existed are
// public; the owner migration `private-origin` (docs/memory.md#private-origin-migration)
// re-marks them private and moves the global ones the owner approves into their private chat,
// and rolls back exactly what it changed. Read back through the real preview: what a group turn
// would get, before and after.
import { env } from "cloudflare:workers";
import {
  ORIGIN_INSPECT_SQL,
  originAppliedSql,
  originApplySql,
  originRestoredSql,
  originRollbackSql,
} from "@src/adapters/d1/owner-migrations/private-origin-sql";
import type { Applied } from "@src/domain/memory/owner-plan";
import {
  type OriginRow,
  planPrivateOrigin,
  readPrivateOriginPlan,
  selectPrivateOrigin,
} from "@src/domain/memory/private-origin";
import { indexText } from "@src/domain/text/search-tokens";
import { beforeAll, describe, it } from "vitest";
import { uid as idOf } from "../support/identity";
import { declared, qqUsers, storeIdentity, uids } from "../support/identity-settings";
import { nodeIdsOf, uid } from "../support/memory";
import { everything, preview } from "../support/preview";

const run = uid().slice(0, 6);
const ALICE = `alice${run}`;
const [ALICE_G, ALICE_P, ADMIN_P] = uids("AG", "AP", "ADP");
const GROUP = `qq:group:${idOf("G")}`;

beforeAll(() =>
  storeIdentity(
    { people: [declared(ALICE, "爱丽丝", qqUsers(ALICE_G, ALICE_P))], admins: qqUsers(ADMIN_P) },
    { memory: { dreaming: { enabled: false } } },
  ),
);

/** A row as the code before private-by-origin wrote it: public, sourced `dream` or `default`. */
async function legacyRow(
  id: string,
  scope: string,
  kind: string,
  text: string,
  session: string,
  source = "dream",
) {
  const [type, ...rest] = scope.split(":");
  await env.DB.prepare(
    `INSERT INTO nodes (node_id, node_type, source_type, scope_type, scope_id, kind, raw_text, retrieval_text, retrieval_tokens,
       metadata, provenance, importance, sensitivity, sensitivity_source, content_hash, created_at, updated_at)
     VALUES (?, 'memory', 'conversation', ?, ?, ?, ?, ?, ?, '{}', ?, 0.6, 'public', ?, ?, 1000, 1000)`,
  )
    .bind(
      id,
      type,
      rest.join(":"),
      kind,
      text,
      text,
      indexText(text),
      JSON.stringify({ session, messageIds: [], account: null, person: null, origin: "dream", runId: "old" }),
      source,
      `h-${id}`,
    )
    .run();
}

const ids = nodeIdsOf;

describe("private-origin re-marks what private chats taught before", () => {
  it("plans, applies and rolls back: the group stops seeing the person's private-chat items and the global one", async ({
    expect,
  }) => {
    const u = uid();
    const personal = `爱丽丝在准备考研${u}`;
    const global = `决定服务器迁到新机房${u}`;
    const group = `周六去爬山${u}`;
    await legacyRow(`p${u}`, `person:${ALICE}`, "fact", personal, `qq:private:${ALICE_P}`);
    await legacyRow(`g${u}`, "global:__global__", "decision", global, `qq:private:${ADMIN_P}`, "default");
    await legacyRow(`c${u}`, `chat:${GROUP}`, "decision", group, GROUP);
    const groupSees = async () =>
      everything(await preview({ chat: GROUP, sender: ALICE_G, text: `考研 机房 爬山 ${u}` }));
    // Before: the leak the migration closes.
    const before = await groupSees();
    expect([before.includes(personal), before.includes(global), before.includes(group)]).toEqual([
      true,
      true,
      true,
    ]);

    const rows = (await env.DB.prepare(ORIGIN_INSPECT_SQL).all<OriginRow>()).results.filter((r) =>
      r.node_id.endsWith(u),
    );
    const planned = planPrivateOrigin(rows, { createdAt: "now", database: "local" });
    expect(planned.entries.map((e) => [e.nodeId.replace(u, ""), e.action, e.chat])).toEqual([
      ["p", "make_private", `qq:private:${ALICE_P}`],
      ["g", "review_global", `qq:private:${ADMIN_P}`],
    ]);
    // --apply-all-safe alone never moves a global item: that one needs the owner's approval.
    expect(selectPrivateOrigin(planned, { applyAllSafe: true }).map((e) => e.action)).toEqual([
      "make_private",
    ]);
    const edited = JSON.parse(JSON.stringify(planned));
    for (const e of edited.entries) e.approval = "approved";
    const plan = readPrivateOriginPlan(edited, "local");
    if (!plan.ok) throw new Error(plan.error);
    const selected = selectPrivateOrigin(plan.value, { applyAllSafe: false });
    const stamp = 5_000_000;
    await env.DB.exec(originApplySql(selected, stamp));
    const applied = await ids(originAppliedSql(selected, stamp));
    expect(applied.sort()).toEqual([`g${u}`, `p${u}`].sort());

    const after = await groupSees();
    expect([after.includes(personal), after.includes(global), after.includes(group)]).toEqual([
      false,
      false,
      true,
    ]);
    // Their own private chats still recall them.
    expect(
      everything(await preview({ chat: `qq:private:${ALICE_P}`, sender: ALICE_P, text: `考研 ${u}` })),
    ).toContain(personal);
    expect(
      everything(await preview({ chat: `qq:private:${ADMIN_P}`, sender: ADMIN_P, text: `机房 ${u}` })),
    ).toContain(global);
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE dedupe_key = ?")
      .bind(`private-origin:apply:${stamp}`)
      .first();
    expect(audit).toEqual({ action: "private_origin_apply" });

    const record: Applied = {
      at: "t",
      stamp,
      nodeIds: applied,
      skipped: [],
      backup: { kind: "local-copy", path: "/tmp/x", at: "t" },
    };
    const rollback = originRollbackSql({ ...plan.value, applied: record }, 6_000_000);
    if (!rollback.ok) throw new Error(rollback.error);
    await env.DB.exec(rollback.value);
    expect((await ids(originRestoredSql({ ...plan.value, applied: record }))).sort()).toEqual(
      [`g${u}`, `p${u}`].sort(),
    );
    const { results } = await env.DB.prepare(
      "SELECT node_id, scope_type, sensitivity, sensitivity_source, updated_at FROM nodes WHERE node_id IN (?, ?) ORDER BY node_id",
    )
      .bind(`g${u}`, `p${u}`)
      .all();
    expect(results).toEqual([
      {
        node_id: `g${u}`,
        scope_type: "global",
        sensitivity: "public",
        sensitivity_source: "default",
        updated_at: 1000,
      },
      {
        node_id: `p${u}`,
        scope_type: "person",
        sensitivity: "public",
        sensitivity_source: "dream",
        updated_at: 1000,
      },
    ]);
  });
});
