// Own file: it empties the D1 log and the migration's records, which every test of a file shares.
import { env } from "cloudflare:workers";
import type { StepReport } from "@src/composition/request/log-migration-service";
import { translator } from "@src/workers/dashboard/i18n/i18n";
import { describe, it } from "vitest";
import { adminApi as api, auditCount, withoutAdmin } from "../../support/admin-api";
import { dashboardPage } from "../../support/admin-session";
import {
  chatMessage,
  chatMessages,
  d1Log,
  freshDeployment,
  groupKey,
  objectFromBeforeTheMove,
  objectLog,
  seedD1,
} from "../../support/log-migration";

const homeOf = (chat: string) => env.CHAT_SESSION.getByName(chat).logHome();
const records = async () =>
  (await env.DB.prepare("SELECT count(*) AS n FROM log_migration").first<{ n: number }>())?.n ?? 0;

async function stepUntilDone(body?: unknown): Promise<StepReport[]> {
  const reports: StepReport[] = [];
  for (let i = 0; i < 30; i++) {
    const r = await api("/log-migration/step", { method: "POST", body });
    if (r.status !== 200) throw new Error(`step answered ${r.status}: ${await r.text()}`);
    reports.push((await r.json()) as StepReport);
    if (reports.at(-1)?.done) return reports;
  }
  throw new Error("the migration did not finish");
}

describe("the log migration API", () => {
  it.for([
    ["GET", "/log-migration"],
    ["POST", "/log-migration/step"],
    ["POST", "/log-migration/retry"],
    ["POST", "/log-migration/rollback"],
    ["POST", "/log-migration/delete-d1"],
  ] as const)("refuses %s %s without an admin", async ([method, path], { expect }) => {
    expect((await withoutAdmin(method, path)).status).toBe(401);
  });

  it("refuses a bad budget before doing anything", async ({ expect }) => {
    const chat = groupKey();
    await seedD1([chatMessage(chat, 1)]);
    for (const body of [
      { pageSize: 0 },
      { maxRows: "all" },
      { maxChats: 0 },
      { pageSize: 10, colour: "red" },
    ]) {
      const r = await api("/log-migration/step", { method: "POST", body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(await r.json()).toMatchObject({ error: "invalid" });
    }
    expect(await records()).toBe(0);
    const progress = await (await api("/log-migration")).json();
    expect(progress).toMatchObject({ chats: { total: 0 }, done: false });
    const html = await (await dashboardPage("/admin/migrations")).text();
    expect(html).toContain(translator("zh-CN")("migrations.logNotStarted"));
  });

  it("steps until done, rolls the verified chats back to D1 and migrates them again", async ({ expect }) => {
    await freshDeployment();
    const a = groupKey();
    const b = groupKey();
    await seedD1([...chatMessages(a, 30), ...chatMessages(b, 12)]);
    await objectFromBeforeTheMove(a);
    await objectFromBeforeTheMove(b);
    // No body: the default budget. Then small steps.
    const first = await api("/log-migration/step", { method: "POST" });
    expect(first.status).toBe(200);
    const reports = await stepUntilDone({ pageSize: 5, maxRows: 10 });
    expect(reports.at(-1)).toMatchObject({
      chats: { total: 2, copying: 0, verified: 2, mismatch: 0 },
      rows: { copied: 42, total: 42 },
      done: true,
    });
    expect(await objectLog(a)).toEqual(await d1Log(a));
    expect(await homeOf(b)).toBe("object");

    const before = await auditCount("log_migration.rollback");
    const back = await (await api("/log-migration/rollback", { method: "POST" })).json();
    expect(back).toMatchObject({ rolledBack: 2, left: 0, progress: { chats: { copying: 2, verified: 0 } } });
    expect(await homeOf(a)).toBe("d1");
    expect(await auditCount("log_migration.rollback")).toBe(before + 1);
    // Nothing was lost: a later run copies what came since and checks again.
    await seedD1([chatMessage(a, 31)]);
    const again = await stepUntilDone();
    expect(again.at(-1)).toMatchObject({ chats: { verified: 2 }, done: true });
    expect(await objectLog(a)).toEqual(await d1Log(a));
    expect(await homeOf(a)).toBe("object");
    expect(await (await api("/log-migration")).json()).toMatchObject({ done: true, mismatches: [] });
    // The dashboard's migrations page says where it stands.
    const html = await (await dashboardPage("/admin/migrations")).text();
    expect(html).toContain(
      translator("zh-CN")("migrations.log", {
        verified: 2,
        total: 2,
        skipped: 0,
        mismatch: 0,
        copied: 43,
        rows: 43,
      }),
    );
  });
  it("deletes no D1 row without a confirmation that is exactly true", async ({ expect }) => {
    const chat = groupKey();
    await seedD1([chatMessage(chat, 1), chatMessage(chat, 2)]);
    await stepUntilDone();
    for (const body of [{ confirm: "yes" }, { confirm: 1 }, { confirm: true, chats: "all" }]) {
      const r = await api("/log-migration/delete-d1", { method: "POST", body });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    const asked = await (await api("/log-migration/delete-d1", { method: "POST", body: {} })).json();
    expect(asked).toMatchObject({ confirmed: false });
    const left = await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE chat_key = ?1")
      .bind(chat)
      .first("n");
    expect(left).toBe(2);
  });
});
