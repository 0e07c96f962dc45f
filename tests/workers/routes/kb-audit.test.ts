// Own file: it reads the audit log, which every test of a file shares.
import { env, exports } from "cloudflare:workers";
import { describe, it } from "vitest";

const TOKEN = "test-admin-token";
const call = (path: string, init: RequestInit = {}) =>
  exports.default.fetch(
    new Request(`https://bot.test/api${path}`, {
      ...init,
      headers: { authorization: `Bearer ${TOKEN}`, ...(init.headers as Record<string, string>) },
    }),
  );
const actions = async (target: string) =>
  (
    await env.DB.prepare("SELECT action, actor FROM audit_log WHERE target = ? ORDER BY id")
      .bind(target)
      .all()
  ).results;

describe("knowledge base changes are audited", () => {
  it("records create, import and delete with the acting admin, and nothing for a refused import", async ({
    expect,
  }) => {
    const name = `audit-${crypto.randomUUID().slice(0, 8)}`;
    const target = `collection:${name}`;
    const created = await call("/kb/collections", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name }),
    });
    expect(created.status).toBe(201);
    const form = new FormData();
    form.append("files", new File(["# 标题\n\n正文内容。"], "a.md", { type: "text/markdown" }));
    expect((await call(`/kb/collections/${name}/documents`, { method: "POST", body: form })).status).toBe(
      200,
    );
    const refused = await call(`/kb/collections/${name}/documents`, { method: "POST", body: "not a form" });
    expect(refused.status).toBe(400);
    expect((await call(`/kb/collections/${name}/documents?source=a.md`, { method: "DELETE" })).status).toBe(
      200,
    );
    expect((await call(`/kb/collections/${name}`, { method: "DELETE" })).status).toBe(200);
    expect(await actions(target)).toEqual([
      { action: "kb.collection.create", actor: "admin-api" },
      { action: "kb.import", actor: "admin-api" },
      { action: "kb.document.delete", actor: "admin-api" },
      { action: "kb.collection.delete", actor: "admin-api" },
    ]);
  });
});
