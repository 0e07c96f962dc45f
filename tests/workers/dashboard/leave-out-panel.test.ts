// The Identity page's "Leave a person out": adds (saying truthfully what was kept or deleted),
// lists, removes, and refuses a garbled key with the field named and nothing saved. Own file:
// it saves stored settings.
import { env } from "cloudflare:workers";
import { afterAll, it } from "vitest";
import { dashboardPage } from "../../support/admin-session";
import { storedSettings } from "../../support/stored-settings";

const page = (path: string, form?: Record<string, string>) => dashboardPage(path, form);

afterAll(async () => {
  await env.DB.prepare("DELETE FROM settings").run();
});

it("adds, lists and removes an account; a garbled one is refused and changes nothing", async ({ expect }) => {
  const added = await page("/admin/identity/leave-out", { account: "qq:user:PANEL1", forget: "1" });
  expect(added.status).toBe(303);
  const notice = decodeURIComponent(added.headers.get("location") ?? "");
  expect(notice).toContain("已把 qq:user:PANEL1 加入不记录名单");
  expect(notice).toContain("已删除该账号的消息 0 条");
  const html = await (await page("/admin/identity")).text();
  expect(html).toContain('<h2 id="leave-out">不记录名单</h2>');
  expect(html).toContain("<code>qq:user:PANEL1</code>");

  const before = await storedSettings(env).read();
  const bad = await page("/admin/identity/leave-out", { account: "qq:group:NOTAPERSON" });
  expect(bad.status).toBe(400);
  expect(await bad.text()).toContain("account ");
  expect(await storedSettings(env).read()).toBe(before);

  const removed = await page("/admin/identity/leave-out/remove", { account: "qq:user:PANEL1" });
  expect(decodeURIComponent(removed.headers.get("location") ?? "")).toContain(
    "已把 qq:user:PANEL1 移出不记录名单",
  );
  expect(await (await page("/admin/identity")).text()).not.toContain("<code>qq:user:PANEL1</code>");
});
