// The overview page lists the open notices to the owner in Chinese until acknowledged; the
// acknowledge button is a POST the admin guard checks for CSRF, audited with the admin; a
// forged post (no CSRF token) and an unknown id change nothing.
import { describe, expect, it } from "vitest";
import { dashboardPage } from "../../support/admin-session";
import { ackAudit, noticeRow, seedNotice } from "../../support/owner-notices";

const page = (path: string, form?: Record<string, string>, csrf = true) =>
  dashboardPage(path, form, { csrf });

describe("notices on the overview page", { timeout: 120_000 }, () => {
  it("shows an open notice in Chinese until it is acknowledged, then not", async () => {
    const id = await seedNotice({ text: "会话 qq:group:G1 2026-12-04 的用量已达每日上限" });
    const html = await (await page("/admin")).text();
    expect(html).toContain("运维通知");
    expect(html).toContain(`data-notice="${id}"`);
    expect(html).toContain("会话 qq:group:G1 2026-12-04 的用量已达每日上限");
    const ack = await page(`/admin/notices/${id}/ack`, {});
    expect(ack.status).toBe(303);
    expect(decodeURIComponent(ack.headers.get("location") ?? "")).toContain(`已确认通知 #${id}`);
    expect(await ackAudit(id)).toMatchObject([{ detail: expect.stringContaining('"via":"dashboard"') }]);
    expect(await (await page("/admin")).text()).not.toContain(`data-notice="${id}"`);
  });

  it("refuses a post without its CSRF token, and an unknown id, changing nothing", async () => {
    const id = await seedNotice();
    const forged = await page(`/admin/notices/${id}/ack`, {}, false);
    expect(forged.status).toBe(403);
    expect((await noticeRow(id))?.acknowledged_at).toBeNull();
    const unknown = await page("/admin/notices/999999999/ack", {});
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("没有确认");
    expect((await noticeRow(id))?.acknowledged_at).toBeNull();
    expect(await ackAudit(id)).toEqual([]);
  });
});
