// Own file: it changes the follow list and the admin list through their pages.
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, it } from "vitest";
import { dashboardPage } from "../../support/admin-session";

const page = (path: string, form?: Record<string, string>, csrf = true) =>
  dashboardPage(path, form, { csrf });

const stored = async () =>
  JSON.parse((await env.DB.prepare("SELECT value FROM settings").first<{ value: string }>())?.value ?? "{}");

const audits = async (path: string) =>
  (
    await env.DB.prepare(
      "SELECT actor, detail FROM audit_log WHERE action = 'config.set' AND target = ? ORDER BY id",
    )
      .bind(path)
      .all<{ actor: string; detail: string }>()
  ).results;

// The first request of a file builds the worker's modules: not part of any test's time.
beforeAll(async () => {
  await page("/admin/follow");
}, 120_000);

afterEach(async () => {
  await env.DB.prepare("DELETE FROM settings").run();
});

describe("the follow page", () => {
  it("follows and unfollows a group through the owner service, audited", async ({ expect }) => {
    const before = (await audits("follow.groups")).length;
    // Local mode follows every group ("*"); an explicit list starts by unfollowing that.
    await page("/admin/follow/remove", { chat: "*" });
    const added = await page("/admin/follow/add", { chat: "qq:group:FOLLOW1" });
    expect(added.status).toBe(303);
    expect(decodeURIComponent(added.headers.get("location") ?? "")).toContain("已关注 qq:group:FOLLOW1。");
    expect((await stored()).follow.groups).toContain("qq:group:FOLLOW1");
    const html = await (await page("/admin/follow")).text();
    expect(html).toContain("<h1>关注的群</h1>");
    expect(html).toContain("<code>qq:group:FOLLOW1</code>");
    const removed = await page("/admin/follow/remove", { chat: "qq:group:FOLLOW1" });
    expect(removed.status).toBe(303);
    expect((await stored()).follow.groups).not.toContain("qq:group:FOLLOW1");
    const rows = (await audits("follow.groups")).slice(before);
    expect(rows).toHaveLength(3);
    expect(JSON.parse(rows[1]?.detail ?? "{}")).toMatchObject({ via: "dashboard", op: "add" });
  });

  it("refuses a private chat or a malformed key beside the field, keeping it typed, saving nothing", async ({
    expect,
  }) => {
    for (const chat of ["qq:private:U1", "not a key"]) {
      const res = await page("/admin/follow/add", { chat });
      expect(res.status, chat).toBe(400);
      const html = await res.text();
      expect(html, chat).toContain('id="add-chat-error"');
      expect(html, chat).toContain(`value="${chat}"`);
    }
    expect(await env.DB.prepare("SELECT 1 FROM settings").first()).toBeNull();
  });

  it("changes nothing without the CSRF token", async ({ expect }) => {
    const res = await page("/admin/follow/add", { chat: "qq:group:NOCSRF" }, false);
    expect(res.status).toBe(403);
    expect(await env.DB.prepare("SELECT 1 FROM settings").first()).toBeNull();
  });
});

describe("the admins page", () => {
  it("adds and removes an admin, audited; the first admin turns identity on", async ({ expect }) => {
    const added = await page("/admin/admins/add", { account: "qq:user:ADMIN1" });
    expect(added.status).toBe(303);
    const notice = decodeURIComponent(added.headers.get("location") ?? "");
    expect(notice).toContain("已添加管理员 qq:user:ADMIN1。");
    const now = await stored();
    expect(now.identity.admins).toContain("qq:user:ADMIN1");
    const html = await (await page("/admin/admins")).text();
    expect(html).toContain("<h1>管理员</h1>");
    expect(html).toContain("<code>qq:user:ADMIN1</code>");
    await page("/admin/admins/remove", { account: "qq:user:ADMIN1" });
    expect((await stored()).identity?.admins ?? []).not.toContain("qq:user:ADMIN1");
    const rows = await audits("identity.admins");
    expect(rows.length).toBeGreaterThanOrEqual(2);
  });

  it("refuses an empty account beside the field and saves nothing", async ({ expect }) => {
    const res = await page("/admin/admins/add", { account: "  " });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("请填写这一项。");
    expect(await env.DB.prepare("SELECT 1 FROM settings").first()).toBeNull();
  });
});
