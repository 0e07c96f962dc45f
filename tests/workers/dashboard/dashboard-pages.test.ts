// Own file: it saves stored settings and changes memory items through the pages.
import { env, exports } from "cloudflare:workers";
import { opsLog } from "@src/composition/common/edge-stores";
import { translator } from "@src/workers/dashboard/i18n/i18n";
import { afterEach, describe, it } from "vitest";
import { session } from "../../support/admin-session";
import { newMemory, seedMemory, uid } from "../../support/memory";
import { registerChat } from "../../support/sessions";

const page = async (path: string, init: { method?: string; form?: Record<string, string> } = {}) => {
  const s = await session();
  const body = init.form ? new URLSearchParams({ _csrf: s.csrf, ...init.form }).toString() : undefined;
  return exports.default.fetch(
    new Request(`https://bot.test${path}`, {
      method: init.method ?? "GET",
      headers: { cookie: s.cookie, ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body,
      redirect: "manual",
    }),
  );
};

afterEach(async () => {
  await env.DB.prepare("DELETE FROM settings").run();
});

describe("dashboard pages", () => {
  it("shows recent errors, retention and embeddings on the overview", async ({ expect }) => {
    await opsLog(env).record("error", {
      at: Date.now(),
      source: "GET /api/x",
      message: "Error: disk on fire",
    });
    // A version no setting reads or writes: listed with the command that retires it.
    await env.DB.prepare(
      "INSERT INTO embeddings (model_id, model_version, content_hash, dims, vector, created_at) VALUES ('old-model', '0', 'h-dash', 2, x'0000803f00000000', 0)",
    ).run();
    const html = await (await page("/admin")).text();
    for (const heading of ["最近的错误", "消息保留", "向量嵌入"])
      expect(html).toContain(`<h2>${heading}</h2>`);
    expect(html).toContain("Error: disk on fire");
    expect(html).toContain(
      "<td>old-model@0</td><td>1</td><td>否 — npm run akasha -- embeddings retire old-model@0</td>",
    );
    await env.DB.prepare("DELETE FROM embeddings WHERE model_id = 'old-model'").run();
  });

  it("names the bad field of a link on the identity page, keeps the typed text and links nothing", async ({
    expect,
  }) => {
    const res = await page("/admin/identity/link", {
      method: "POST",
      form: { account: "qq:nobody", person: "p1" },
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain("account ");
    expect(html).toContain('value="qq:nobody"');
    expect(
      await env.DB.prepare("SELECT 1 FROM person_accounts WHERE account_key = 'qq:nobody'").first(),
    ).toBeNull();
    expect(await env.DB.prepare("SELECT 1 FROM audit_log WHERE action = 'identity.link'").first()).toBeNull();
  });

  it("generates a plan from the migrations page and refuses an apply without ticked rows", async ({
    expect,
  }) => {
    const made = await page("/admin/migrations/plans", {
      method: "POST",
      form: { kind: "sensitivity-backfill" },
    });
    expect(made.status).toBe(303);
    const location = made.headers.get("location") ?? "";
    expect(location).toMatch(/^\/admin\/migrations\?plan=plan-/);
    const html = await (await page(location.replace(/#.*/, ""))).text();
    expect(html).toContain(translator("zh-CN")("migrations.planOf", { kind: "sensitivity-backfill" }));
    const id = new URL(location, "https://bot.test").searchParams.get("plan");
    const refused = await page(`/admin/migrations/plans/${id}/apply`, { method: "POST", form: {} });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("tick the rows to apply");
  });

  it.for([
    ["/admin", "概览"],
    ["/admin/chats", "会话"],
    ["/admin/chats/qq%3Agroup%3AG1", "qq:group:G1"],
    ["/admin/memory", "记忆"],
    ["/admin/settings", "设置"],
    ["/admin/audit", "审计日志"],
    ["/admin/identity", "身份"],
    ["/admin/knowledge", "知识库"],
    ["/admin/migrations", "迁移"],
    ["/admin/sessions", "对话段"],
  ] as const)("renders %s for a logged-in admin, headed %s", async ([path, heading], { expect }) => {
    // A chat's history opens for a chat the registry knows (an unknown one is a 404).
    await registerChat("qq:group:G1");
    const res = await page(path);
    expect(res.status, path).toBe(200);
    const html = await res.text();
    expect(html, path).toContain(`<h1>${heading}</h1>`);
    expect(html, path).toContain('name="_csrf"');
  });

  it("names the bad field and keeps the typed text when a setting is invalid, saving nothing", async ({
    expect,
  }) => {
    const typed = '{"retention":{"groupDays":"soon"}}';
    const res = await page("/admin/settings", {
      method: "POST",
      form: { stored: typed, revision: "none" },
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("retention.groupDays");
    expect(html).toContain("{&quot;retention&quot;:{&quot;groupDays&quot;:&quot;soon&quot;}}");
    expect(await env.DB.prepare("SELECT 1 FROM settings").first()).toBeNull();
  });

  it("saves a valid stored layer by compare-and-set and refuses a stale revision", async ({ expect }) => {
    const first = await page("/admin/settings", {
      method: "POST",
      form: { stored: '{"retention":{"groupDays":7}}', revision: "none" },
    });
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("已保存。");
    const stale = await page("/admin/settings", {
      method: "POST",
      form: { stored: '{"retention":{"groupDays":8}}', revision: "none" },
    });
    expect(stale.status).toBe(409);
    const row = await env.DB.prepare("SELECT value FROM settings").first<{ value: string }>();
    expect(JSON.parse(row?.value ?? "null")).toEqual({ retention: { groupDays: 7 } });
    const audit = await env.DB.prepare(
      "SELECT actor FROM audit_log WHERE action = 'config.replace' ORDER BY id DESC LIMIT 1",
    ).first();
    expect(audit).toEqual({ actor: "admin" });
  });

  it("archives and forgets from the memory page, the forget only when confirmed", async ({ expect }) => {
    const [id] = (await seedMemory([newMemory(`chat:qq:group:G${uid()}`, "页面测试的记忆")])) as [string];
    const status = () => env.DB.prepare("SELECT status FROM nodes WHERE node_id = ?").bind(id).first();
    expect((await page(`/admin/memory/${id}/archive`, { method: "POST", form: {} })).status).toBe(303);
    expect(await status()).toEqual({ status: "archived" });
    expect((await page(`/admin/memory/${id}/forget`, { method: "POST", form: {} })).status).toBe(200);
    expect(await status()).not.toBeNull();
    expect((await page(`/admin/memory/${id}/forget`, { method: "POST", form: { confirm: id } })).status).toBe(
      303,
    );
    expect(await status()).toBeNull();
  });
});
