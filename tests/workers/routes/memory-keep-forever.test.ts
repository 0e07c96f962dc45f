// Keep forever and task due times through the admin API and the dashboard
// (docs/memory.md#decay-and-reinforcement): each change audited, bad input refused with the field
// named and nothing changed. Own file: it counts audit rows, which every test of a file shares.
import { exports } from "cloudflare:workers";
import { describe, it } from "vitest";
import { adminApi } from "../../support/admin-api";
import { session } from "../../support/admin-session";
import { memoryAudits, newMemory, nodeColumns, seedMemory, uid } from "../../support/memory";

const api = (path: string, method: string, body?: unknown) => adminApi(`/memory/${path}`, { method, body });

const row = (id: string) => nodeColumns(id, "keep_forever, due_at, status, expired_at, updated_at");

const seed = async (kind: "fact" | "task") =>
  (await seedMemory([newMemory(`chat:qq:private:U${uid()}`, `记一件事${uid()}`, { kind })]))[0] as string;

describe("keep forever through the API", () => {
  it("PATCH keepForever sets and clears it, shows it on the item, and audits it", async ({ expect }) => {
    const id = await seed("fact");
    const on = await api(id, "PATCH", { keepForever: true });
    expect(on.status).toBe(200);
    const body = (await on.json()) as { item: { decay: { keepForever: boolean; reinforceCount: number } } };
    expect(body.item.decay).toMatchObject({ keepForever: true, reinforceCount: 0 });
    expect(await row(id)).toMatchObject({ keep_forever: 1 });
    expect((await api(id, "PATCH", { keepForever: false })).status).toBe(200);
    expect(await row(id)).toMatchObject({ keep_forever: 0 });
    expect((await memoryAudits(id, "memory.edit")).map((d) => d.keepForever)).toEqual([true, false]);
  });

  it.for([
    [{ keepForever: "yes" }, "keepForever"],
    [{ keepForever: 1 }, "keepForever"],
    [{ dueAt: "tomorrow" }, "dueAt"],
    [{ dueAt: -5 }, "dueAt"],
    [{ keepForever: true, forever: true }, "(body)"],
  ] as const)("refuses %j naming %s, and changes nothing", async ([body, field], { expect }) => {
    const id = await seed("task");
    const before = await row(id);
    const res = await api(id, "PATCH", body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid", field });
    expect(await row(id)).toEqual(before);
    expect(await memoryAudits(id, "memory.edit")).toEqual([]);
  });

  it("a due time is only for a task; a task gets one and is marked done once", async ({ expect }) => {
    const fact = await seed("fact");
    const refused = await api(fact, "PATCH", { dueAt: Date.now() });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ field: "dueAt", reason: "only a task has a due time" });
    expect(await row(fact)).toMatchObject({ due_at: null });
    expect((await api(fact, "POST")).status).toBe(404);
    expect((await api(`${fact}/done`, "POST")).status).toBe(400);

    const task = await seed("task");
    const due = Date.now() + 86_400_000;
    expect((await api(task, "PATCH", { dueAt: due })).status).toBe(200);
    expect(await row(task)).toMatchObject({ due_at: due });
    const done = await api(`${task}/done`, "POST");
    expect(done.status).toBe(200);
    expect(await row(task)).toMatchObject({ status: "archived", expired_at: expect.any(Number) });
    expect(await memoryAudits(task, "memory.expire")).toEqual([{ via: "api", cause: "done" }]);
    const again = await api(`${task}/done`, "POST");
    expect(again.status).toBe(400);
    expect(await memoryAudits(task, "memory.expire")).toHaveLength(1);
  });
});

describe("keep forever on the dashboard", () => {
  const post = (id: string, form: Record<string, string>, headers: Record<string, string>) =>
    exports.default.fetch(
      new Request(`https://bot.test/admin/memory/${id}/keep`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams(form),
        redirect: "manual",
      }),
    );

  it("the edit page shows the age weight and reinforcement, and the toggle needs the CSRF token", async ({
    expect,
  }) => {
    const id = await seed("fact");
    const s = await session();
    const page = await exports.default.fetch(
      new Request(`https://bot.test/admin/memory/${id}/edit`, { headers: { cookie: s.cookie } }),
    );
    const html = await page.text();
    expect(html).toContain("年龄权重");
    expect(html).toContain("1.00");
    expect(html).toContain("永久保留");

    const forged = await post(id, { keepForever: "true" }, { cookie: s.cookie });
    expect(forged.status).toBe(403);
    expect(await row(id)).toMatchObject({ keep_forever: 0 });

    const kept = await post(id, { keepForever: "true", _csrf: s.csrf }, { cookie: s.cookie });
    expect(kept.status).toBe(303);
    expect(await row(id)).toMatchObject({ keep_forever: 1 });
    expect(await memoryAudits(id, "memory.edit")).toMatchObject([
      { keepForever: true, fields: "keepForever" },
    ]);
    const after = await exports.default.fetch(
      new Request(`https://bot.test${kept.headers.get("location")}`, { headers: { cookie: s.cookie } }),
    );
    expect(await after.text()).toContain("取消永久保留");
  });

  it("the memory list marks an expired task and an item kept forever", async ({ expect }) => {
    const tag = uid();
    const [task, fact] = await seedMemory([
      newMemory(`chat:qq:private:U${tag}`, `交报告${tag}`, { kind: "task" }),
      newMemory(`chat:qq:private:U${tag}`, `住在杭州${tag}`, { kind: "fact" }),
    ]);
    expect((await api(`${task}/done`, "POST")).status).toBe(200);
    expect((await api(fact as string, "PATCH", { keepForever: true })).status).toBe(200);
    const s = await session();
    const list = await exports.default.fetch(
      new Request(`https://bot.test/admin/memory?chat=qq:private:U${tag}`, { headers: { cookie: s.cookie } }),
    );
    const html = await list.text();
    expect(html).toMatch(/archived<span class="muted"> · (<!-- -->)?已过期/);
    expect(html).toContain("永久保留");
  });
});
