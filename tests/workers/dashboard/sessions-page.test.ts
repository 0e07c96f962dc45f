// The Sessions page: lists sessions with their clusters, shows a risk marker where a group
// reads a private chat, asks for confirmation before such a link, and renames, unlinks,
// exports and forgets through the same operations as the API.
import { env, exports } from "cloudflare:workers";
import { translator } from "@src/workers/dashboard/i18n/i18n";
import { describe, it } from "vitest";

/** The page speaks Chinese by default: what it says is read from the catalogue. */
const t = translator("zh-CN");

import { sessionIdOf } from "@src/domain/sessions/session-id";
import { session } from "../../support/admin-session";
import { newMemory, seedMemory, uid } from "../../support/memory";
import { registerChat } from "../../support/sessions";

const page = async (
  path: string,
  init: { method?: string; form?: Record<string, string>; csrf?: boolean } = {},
) => {
  const s = await session();
  const body = init.form
    ? new URLSearchParams({ ...(init.csrf === false ? {} : { _csrf: s.csrf }), ...init.form }).toString()
    : undefined;
  return exports.default.fetch(
    new Request(`https://bot.test${path}`, {
      method: init.method ?? (body ? "POST" : "GET"),
      headers: { cookie: s.cookie, ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body,
      redirect: "manual",
    }),
  );
};

const clusterOf = async (chat: string) =>
  (
    await env.DB.prepare("SELECT cluster_id FROM chat_sessions WHERE chat_key = ?1")
      .bind(chat)
      .first<{ cluster_id: string }>()
  )?.cluster_id;

describe("sessions page", () => {
  it("a private→group link asks for confirmation, then shows the risk marker; unlink removes it", async ({
    expect,
  }) => {
    const tag = uid();
    const group = `qq:group:G${tag}`;
    const priv = `qq:private:U${tag}`;
    await registerChat(group);
    await registerChat(priv);
    const [g, p] = [sessionIdOf(group), sessionIdOf(priv)];

    const listed = await (await page("/admin/sessions")).text();
    expect(listed).toContain(`<h1>${t("nav.sessions")}</h1>`);
    expect(listed).toContain(g);

    const asked = await page("/admin/sessions/link", { form: { a: g, b: p } });
    expect(asked.status).toBe(400);
    const askedHtml = await asked.text();
    expect(askedHtml).toContain(t("sessions.linkAnyway"));
    expect(askedHtml).toContain(`qq:user:U${tag}`);
    expect(await clusterOf(priv)).toBe(p);

    const refusedWithoutCsrf = await page("/admin/sessions/link", {
      form: { a: g, b: p, confirm: "yes" },
      csrf: false,
    });
    expect(refusedWithoutCsrf.status).toBe(403);
    expect(await clusterOf(priv)).toBe(p);

    const linked = await page("/admin/sessions/link", { form: { a: g, b: p, confirm: "yes" } });
    expect(linked.status).toBe(303);
    expect(await clusterOf(priv)).toBe(g);
    const marked = await (await page("/admin/sessions")).text();
    const [head, tail] = t("sessions.readsPrivate").split("{label}");
    expect(marked).toMatch(new RegExp(`${head}[^<]+${tail}`));
    expect(marked).toContain(t("sessions.readByGroup", { group }));

    expect((await page(`/admin/sessions/${p}/unlink`, { form: {} })).status).toBe(303);
    expect(await clusterOf(priv)).toBe(p);
    const unlinked = await (await page("/admin/sessions")).text();
    expect(unlinked).not.toContain(t("sessions.readByGroup", { group }));
    expect(unlinked).not.toContain('data-risk="private"');
  });

  it("renames (refusing a bad alias), exports Markdown and forgets only when the id is typed", async ({
    expect,
  }) => {
    const tag = uid();
    const group = `qq:group:R${tag}`;
    await registerChat(group);
    const id = sessionIdOf(group);
    await seedMemory([newMemory(`chat:${group}`, `导出的记忆${tag}`)]);

    expect((await page(`/admin/sessions/${id}/rename`, { form: { alias: "has space" } })).status).toBe(400);
    expect((await page(`/admin/sessions/${id}/rename`, { form: { alias: `club${tag}` } })).status).toBe(303);
    const exported = await page(`/admin/sessions/club${tag}/export`);
    expect(exported.headers.get("content-disposition")).toContain(`${id}.md`);
    expect(await exported.text()).toContain(`导出的记忆${tag}`);

    expect((await page(`/admin/sessions/${id}/forget`, { form: { confirm: "nope" } })).status).toBe(400);
    const kept = await env.DB.prepare("SELECT count(*) AS n FROM nodes WHERE scope_id = ?1")
      .bind(group)
      .first<{ n: number }>();
    expect(kept?.n).toBe(1);
    expect((await page(`/admin/sessions/${id}/forget`, { form: { confirm: id } })).status).toBe(303);
    const gone = await env.DB.prepare("SELECT count(*) AS n FROM nodes WHERE scope_id = ?1")
      .bind(group)
      .first<{ n: number }>();
    expect(gone?.n).toBe(0);
  });
});
