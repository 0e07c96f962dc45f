// The Sessions page shows the OneBot backfill's progress; a failed group's Restart button
// resumes it from its cursor (audited with the admin), a second press changes nothing, and a
// bad or finished chat is refused with nothing changed.
import { env } from "cloudflare:workers";
import { translator } from "@src/workers/dashboard/i18n/i18n";
import { describe, it } from "vitest";

/** The page speaks Chinese by default: what it says is read from the catalogue. */
const t = translator("zh-CN");

import { dashboardPage } from "../../support/admin-session";
import { registerChat, sessionAudit } from "../../support/sessions";

const page = (path: string, form?: Record<string, string>) => dashboardPage(path, form);

async function seedRecord(chatKey: string, status: "failed" | "done", cursor: string) {
  await env.DB.prepare(
    `INSERT INTO backfill_progress (chat_key, status, cursor, pages, fetched, stored, skipped, errors, last_error, done_reason, started_at, updated_at)
     VALUES (?1, ?2, ?3, 100, 40, 40, 0, 3, 'http: HTTP 502', ?4, 1, 1)`,
  )
    .bind(chatKey, status, cursor, status === "done" ? "beginning of history" : null)
    .run();
}

const record = (chatKey: string) =>
  env.DB.prepare(
    "SELECT status, cursor, stored, restarts, restart_pages FROM backfill_progress WHERE chat_key = ?1",
  )
    .bind(chatKey)
    .first();

describe("backfill on the Sessions page", () => {
  it("restarts a failed group from its cursor once, and refuses what it cannot restart", async ({
    expect,
  }) => {
    const n = 400_000 + Math.floor(Math.random() * 100_000);
    const failed = `onebot:group:${n}`;
    const done = `onebot:group:${n + 1}`;
    // The test Worker follows "*": registered OneBot groups are followed.
    await registerChat(failed, Date.now(), "露营群");
    await registerChat(done);
    await seedRecord(failed, "failed", "5120");
    await seedRecord(done, "done", "1000");

    const html = await (await page("/admin/sessions")).text();
    expect(html).toContain('id="backfill"');
    const row = html.slice(html.indexOf(`data-backfill="${failed}"`));
    expect(row.slice(0, row.indexOf("</tr>"))).toContain("露营群");
    expect(row.slice(0, row.indexOf("</tr>"))).toContain(t("backfill.restart"));
    const doneRow = html.slice(html.indexOf(`data-backfill="${done}"`));
    expect(doneRow.slice(0, doneRow.indexOf("</tr>"))).not.toContain(t("backfill.restart"));
    expect(doneRow.slice(0, doneRow.indexOf("</tr>"))).not.toContain("/admin/sessions/backfill/restart");

    const restarted = await page("/admin/sessions/backfill/restart", { chat: failed });
    expect(restarted.status).toBe(303);
    expect(decodeURIComponent(restarted.headers.get("location") ?? "")).toContain(
      t("backfill.restarted", { chat: failed, cursor: "5120", stored: 40 }),
    );
    expect(await record(failed)).toEqual({
      status: "running",
      cursor: "5120",
      stored: 40,
      restarts: 1,
      restart_pages: 100,
    });

    const again = await page("/admin/sessions/backfill/restart", { chat: failed });
    expect(decodeURIComponent(again.headers.get("location") ?? "")).toContain(
      t("backfill.alreadyRunning", { chat: failed }),
    );
    expect(await record(failed)).toMatchObject({ restarts: 1 });

    const before = await record(done);
    for (const chat of [done, "qq:group:G1", ""]) {
      const refused = await page("/admin/sessions/backfill/restart", { chat });
      expect(refused.status).toBe(400);
      const named = chat || t("backfill.noChat");
      expect(await refused.text()).toContain(t("backfill.notRestarted", { chat: named, reason: "" }));
    }
    expect(await record(done)).toEqual(before);
    const audit = (await sessionAudit("backfill.restart")).filter((r) => r.target === failed);
    expect(audit.map((r) => [r.detail.via, r.detail.outcome, r.detail.changed])).toEqual([
      ["dashboard", "ok", true],
      ["dashboard", "ok", false],
    ]);
  });
});
