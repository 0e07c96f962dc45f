// A task's lifecycle as admins run it (docs/memory.md#decay-and-reinforcement): "标记完成" on its
// edit page and POST /api/memory/:id/done archive it now as expired with cause "done" and one
// audit row; its due time is set and cleared on the edit page in calendar.timeZone. Refusals
// first — a fact, an archived task, an unknown id, no admin, no CSRF token — each changing
// nothing. Then the cron's expiry leaves a done task alone. Own file: it counts audit rows.
import { env, exports } from "cloudflare:workers";
import { taskExpiryJob } from "@src/composition/cron/task-expiry-job";
import { settingsCache } from "@src/composition/settings/settings-cache";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { afterEach, describe, it } from "vitest";
import { adminApi } from "../../support/admin-api";
import { dashboardPage } from "../../support/admin-session";
import { memoryAudits, newMemory, nodeColumns, seedMemory, uid } from "../../support/memory";
import { storedSettings } from "../../support/stored-settings";

const DAY = 86_400_000;

const api = (path: string, method: string, headers: Record<string, string> = {}) =>
  adminApi(`/memory/${path}`, { method, headers });

const row = (id: string) => nodeColumns(id, "status, due_at, expired_at, updated_at");

const seed = async (kind: "fact" | "task", at = Date.now()) =>
  (await seedMemory([newMemory(`chat:qq:private:U${uid()}`, `交周报${uid()}`, { kind })], at))[0] as string;

const done = (id: string, options: { csrf?: boolean } = {}) =>
  dashboardPage(`/admin/memory/${id}/done`, {}, options);
const due = (id: string, value: string, options: { csrf?: boolean } = {}) =>
  dashboardPage(`/admin/memory/${id}/due`, { dueAt: value }, options);

describe("marking done is refused, and changes nothing", () => {
  it("for an item that is not a task, on the page and through the API", async ({ expect }) => {
    const fact = await seed("fact");
    const before = await row(fact);
    const page = await done(fact);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("只有有效（active）的待办才能标记完成，什么都没有改变。");
    const res = await api(`${fact}/done`, "POST");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid", field: "status" });
    expect(await row(fact)).toEqual(before);
    expect(await memoryAudits(fact, "memory.expire")).toEqual([]);
  });

  it("for a task already archived", async ({ expect }) => {
    const task = await seed("task");
    expect((await api(`${task}/archive`, "POST")).status).toBe(200);
    const before = await row(task);
    expect((await done(task)).status).toBe(400);
    expect((await api(`${task}/done`, "POST")).status).toBe(400);
    expect(await row(task)).toEqual(before);
    expect(before).toMatchObject({ status: "archived", expired_at: null });
    expect(await memoryAudits(task, "memory.expire")).toEqual([]);
  });

  it("for an unknown id", async ({ expect }) => {
    expect((await done("m_nope")).status).toBe(404);
    expect((await api("m_nope/done", "POST")).status).toBe(404);
    expect(await memoryAudits("m_nope", "memory.expire")).toEqual([]);
  });

  it("for a caller who is not an admin, and for a form without the CSRF token", async ({ expect }) => {
    const task = await seed("task");
    const before = await row(task);
    const anonymous = await exports.default.fetch(
      new Request(`https://bot.test/admin/memory/${task}/done`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "",
        redirect: "manual",
      }),
    );
    expect(anonymous.status).toBe(401);
    expect((await api(`${task}/done`, "POST", { authorization: "Bearer not-the-token" })).status).toBe(401);
    expect((await done(task, { csrf: false })).status).toBe(403);
    expect(await row(task)).toEqual(before);
    expect(await memoryAudits(task, "memory.expire")).toEqual([]);
  });
});

describe("marking a task done", () => {
  it("on its edit page archives it now as expired, audited with the cause, and says so", async ({
    expect,
  }) => {
    const task = await seed("task");
    const form = await (await dashboardPage(`/admin/memory/${task}/edit`)).text();
    expect(form).toContain("标记完成");
    // Both task forms carry the page's CSRF token, as a browser posts them.
    for (const action of ["due", "done"])
      expect(form).toMatch(
        new RegExp(`action="/admin/memory/${task}/${action}"[^>]*><input type="hidden" name="_csrf"`),
      );

    const res = await done(task);
    expect(res.status).toBe(303);
    expect(await row(task)).toMatchObject({ status: "archived", expired_at: expect.any(Number) });
    expect(await memoryAudits(task, "memory.expire")).toEqual([{ via: "dashboard", cause: "done" }]);
    const after = await (await dashboardPage(res.headers.get("location") ?? "")).text();
    expect(after).toContain("已标记完成");
    expect(after).toContain("已过期于");
    // Done once: the page offers it no more, and a second post is refused.
    expect(after).not.toContain(`action="/admin/memory/${task}/done"`);
    expect((await done(task)).status).toBe(400);
    expect(await memoryAudits(task, "memory.expire")).toHaveLength(1);
  });

  it("through the API, audited as the API's", async ({ expect }) => {
    const task = await seed("task");
    const res = await api(`${task}/done`, "POST");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ item: { status: "archived", kind: "task" } });
    expect(await memoryAudits(task, "memory.expire")).toEqual([{ via: "api", cause: "done" }]);
  });

  it("is left alone by the cron's expiry afterwards", async ({ expect }) => {
    const task = await seed("task", Date.now() - 400 * DAY);
    expect((await due(task, "2020-01-01T09:00")).status).toBe(303);
    expect((await done(task)).status).toBe(303);
    const before = await row(task);
    await taskExpiryJob(env, DEFAULT_SETTINGS, Date.now() + 400 * DAY);
    expect(await row(task)).toEqual(before);
    expect(await memoryAudits(task, "memory.expire")).toEqual([{ via: "dashboard", cause: "done" }]);
  });
});

describe("a task's due time on its edit page", () => {
  it("is set in calendar.timeZone, shown back in it, and audited", async ({ expect }) => {
    const task = await seed("task");
    const res = await due(task, "2026-12-10T18:30");
    expect(res.status).toBe(303);
    // Asia/Shanghai by default: 18:30 there is 10:30 UTC.
    expect(await row(task)).toMatchObject({ due_at: Date.parse("2026-12-10T10:30:00Z") });
    expect(await memoryAudits(task, "memory.edit")).toEqual([
      { via: "dashboard", fields: "dueAt", dueAt: Date.parse("2026-12-10T10:30:00Z") },
    ]);
    const page = await (await dashboardPage(res.headers.get("location") ?? "")).text();
    expect(page).toContain("2026-12-10 18:30 +08:00");
    expect(page).toContain('value="2026-12-10T18:30"');
  });

  it("is cleared by an empty field", async ({ expect }) => {
    const task = await seed("task");
    expect((await due(task, "2026-12-10T18:30")).status).toBe(303);
    expect((await due(task, "")).status).toBe(303);
    expect(await row(task)).toMatchObject({ due_at: null });
    expect((await memoryAudits(task, "memory.edit")).map((d) => d.dueAt)).toEqual([
      Date.parse("2026-12-10T10:30:00Z"),
      null,
    ]);
  });

  it.for(["明天", "2026-02-31T10:00", "2026-12-10T25:00", "2026-12-10", "1765362600000"])(
    "refuses %j with a Chinese error and changes nothing",
    async (value, { expect }) => {
      const task = await seed("task");
      expect((await due(task, "2026-12-10T18:30")).status).toBe(303);
      const before = await row(task);
      const res = await due(task, value);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("到期时间应写成日期和时间");
      expect(await row(task)).toEqual(before);
      expect(await memoryAudits(task, "memory.edit")).toHaveLength(1);
    },
  );

  it("is refused for an item that is not a task, without the CSRF token, and for an unknown id", async ({
    expect,
  }) => {
    const fact = await seed("fact");
    const task = await seed("task");
    const [factBefore, taskBefore] = [await row(fact), await row(task)];
    const refused = await due(fact, "2026-12-10T18:30");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("只有待办才有到期时间，什么都没有改变。");
    expect((await due(task, "2026-12-10T18:30", { csrf: false })).status).toBe(403);
    expect((await due("m_nope", "2026-12-10T18:30")).status).toBe(404);
    expect(await row(fact)).toEqual(factBefore);
    expect(await row(task)).toEqual(taskBefore);
    expect(await memoryAudits(fact, "memory.edit")).toEqual([]);
    expect(await memoryAudits(task, "memory.edit")).toEqual([]);
  });

  it("is offered only on a task's page", async ({ expect }) => {
    const fact = await seed("fact");
    const html = await (await dashboardPage(`/admin/memory/${fact}/edit`)).text();
    expect(html).not.toContain(`action="/admin/memory/${fact}/due"`);
    expect(html).not.toContain("标记完成");
  });
});

describe("a task's due time in another calendar.timeZone", () => {
  afterEach(async () => {
    await env.DB.prepare("DELETE FROM settings").run();
    settingsCache.invalidate();
  });

  it("is read and shown in Los Angeles when the calendar is there", async ({ expect }) => {
    await storedSettings(env).write(
      JSON.stringify({ calendar: { timeZone: "America/Los_Angeles" } }),
      "test",
      Date.now(),
    );
    settingsCache.invalidate();
    const task = await seed("task");
    const res = await due(task, "2026-12-10T18:30");
    expect(res.status).toBe(303);
    // 18:30 in Los Angeles in December (-08:00) is 02:30 UTC the next day.
    expect(await row(task)).toMatchObject({ due_at: Date.parse("2026-12-11T02:30:00Z") });
    const page = await (await dashboardPage(res.headers.get("location") ?? "")).text();
    expect(page).toContain("2026-12-10 18:30 -08:00");
    expect(page).toContain('value="2026-12-10T18:30"');
    expect(page).toContain("America/Los_Angeles");
    // 02:30 on 2026-03-08 is skipped there: refused, nothing changed.
    expect((await due(task, "2026-03-08T02:30")).status).toBe(400);
    expect(await row(task)).toMatchObject({ due_at: Date.parse("2026-12-11T02:30:00Z") });
  });
});
