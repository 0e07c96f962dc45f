// Own file: it saves stored settings through the settings form.
import { env } from "cloudflare:workers";
import { SESSION_ACTOR } from "@src/workers/auth/admin-identity";
import { afterEach, describe, it } from "vitest";
import { dashboardPage } from "../../support/admin-session";

const _ORIGIN = "https://bot.test";

const page = (path: string, init: { form?: Record<string, string>; cookie?: string } = {}) =>
  dashboardPage(path, init.form, { cookie: init.cookie });

/** Every field of the form as the page shows it, read back from the page itself. */
async function shownForm(): Promise<Record<string, string>> {
  const html = await (await page("/admin/settings")).text();
  const form = html.slice(html.indexOf('id="settings-form"'), html.indexOf('id="advanced"'));
  const fields: Record<string, string> = { form: "fields" };
  for (const m of form.matchAll(/<input id="[^"]+" name="([^"]+)"[^>]*value="([^"]*)"/g))
    fields[m[1] as string] = m[2] as string;
  for (const m of form.matchAll(/<select id="[^"]+" name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g)) {
    const selected = /<option value="([^"]*)" selected/.exec(m[2] as string);
    fields[m[1] as string] = selected?.[1] ?? "";
  }
  for (const m of form.matchAll(/<textarea id="[^"]+" name="([^"]+)"[^>]*>([\s\S]*?)<\/textarea>/g))
    fields[m[1] as string] = m[2] as string;
  const revision = /name="revision" value="([^"]*)"/.exec(form)?.[1] ?? "";
  return { ...fields, revision };
}

const stored = async () =>
  (await env.DB.prepare("SELECT value FROM settings").first<{ value: string }>())?.value ?? null;

afterEach(async () => {
  await env.DB.prepare("DELETE FROM settings").run();
});

describe("the settings form", () => {
  it("is Chinese by default, grouped, each field with its label, range and help", async ({ expect }) => {
    const html = await (await page("/admin/settings")).text();
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain("<legend>消息保留</legend>");
    expect(html).toContain("群消息保留天数");
    expect(html).toContain("允许范围：1 – 3650 天");
    expect(html).toContain("群聊消息记录保存多少天");
    expect(html).toContain("<summary>高级：以 JSON 编辑存储层</summary>");
  });

  it("an invalid value keeps every typed value, names the field beside it and saves nothing", async ({
    expect,
  }) => {
    const form = await shownForm();
    expect(form["retention.groupDays"]).toBe("90");
    const res = await page("/admin/settings", {
      form: { ...form, "retention.groupDays": "0", "turn.recentTurns": "7", "retention.privateDays": "两周" },
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('id="field-retention-groupDays-error"');
    expect(html).toContain("应在 1 到 3650 之间。");
    expect(html).toContain('id="field-retention-privateDays-error"');
    expect(html).toContain("请输入数字。");
    expect(html).toContain('name="retention.groupDays" aria-describedby');
    expect(html).toMatch(/name="turn\.recentTurns"[^>]*value="7"/);
    expect(html).toMatch(/name="retention\.privateDays"[^>]*value="两周"/);
    expect(await stored()).toBeNull();
  });

  it("a schema refusal the form cannot see is shown beside the field too", async ({ expect }) => {
    const form = await shownForm();
    const res = await page("/admin/settings", { form: { ...form, "calendar.timeZone": "Mars/Olympus" } });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('id="field-calendar-timeZone-error"');
    expect(await stored()).toBeNull();
  });

  it("the advanced JSON view words a schema refusal in the page's language and saves nothing", async ({
    expect,
  }) => {
    const form = await shownForm();
    const advanced = { stored: '{"retention":{"groupDays":0}}', revision: form.revision ?? "" };
    const zh = await (await page("/admin/settings", { form: advanced })).text();
    expect(zh).toContain("retention.groupDays");
    expect(zh).toContain("数值过小：期望 number &gt;=1");
    const en = await page("/admin/settings", { form: advanced, cookie: "akasha_lang=en" });
    expect(en.status).toBe(400);
    expect(await en.text()).toContain("Too small: expected number to be &gt;=1");
    expect(await stored()).toBeNull();
  });

  it("saves only what changed, through the audited write path", async ({ expect }) => {
    const form = await shownForm();
    const res = await page("/admin/settings", { form: { ...form, "retention.groupDays": "30" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("已保存。");
    expect(JSON.parse((await stored()) ?? "null")).toEqual({ retention: { groupDays: 30 } });
    const audit = await env.DB.prepare(
      "SELECT actor, action, detail FROM audit_log WHERE action = 'config.replace' ORDER BY id DESC LIMIT 1",
    ).first<{ actor: string; action: string; detail: string }>();
    expect(audit?.actor).toBe(SESSION_ACTOR);
    expect(JSON.parse(audit?.detail ?? "{}")).toMatchObject({ via: "dashboard" });
  });

  it("refuses a form read before another save (compare-and-set)", async ({ expect }) => {
    const form = await shownForm();
    await page("/admin/settings", { form: { ...form, "retention.groupDays": "30" } });
    const late = await page("/admin/settings", { form: { ...form, "retention.privateDays": "60" } });
    expect(late.status).toBe(409);
    expect(JSON.parse((await stored()) ?? "null")).toEqual({ retention: { groupDays: 30 } });
  });
});

describe("the dashboard language", () => {
  it("switches to English for this browser by a cookie, and back", async ({ expect }) => {
    const res = await page("/admin/lang/en?next=%2Fadmin%2Fsettings");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/settings");
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    expect(cookie).toBe("akasha_lang=en");
    const english = await (await page("/admin/settings", { cookie })).text();
    expect(english).toContain('<html lang="en">');
    expect(english).toContain("<legend>Message retention</legend>");
    expect(english).toContain('href="/admin/lang/zh-CN?next=%2Fadmin%2Fsettings"');
    const back = await page("/admin/lang/zh-CN?next=%2Fadmin");
    expect((back.headers.get("set-cookie") ?? "").split(";")[0]).toBe("akasha_lang=zh-CN");
  });

  it("follows the dashboard.language setting when the browser has not chosen", async ({ expect }) => {
    const form = await shownForm();
    await page("/admin/settings", { form: { ...form, "dashboard.language": "en" } });
    expect(await (await page("/admin")).text()).toContain('<html lang="en">');
    expect(await (await page("/admin", { cookie: "akasha_lang=zh-CN" })).text()).toContain(
      '<html lang="zh-CN">',
    );
  });

  it("never redirects outside the dashboard, and changes nothing on the server", async ({ expect }) => {
    for (const next of ["https://evil.example/", "//evil.example/admin", "/api/chats", "/adminx"]) {
      const res = await page(`/admin/lang/en?next=${encodeURIComponent(next)}`);
      expect(res.headers.get("location"), next).toBe("/admin");
    }
    expect((await page("/admin/lang/fr")).status).toBe(404);
    expect(await stored()).toBeNull();
  });
});
