/**
 * A name an admin uploads or types is stored as it is seen: no direction override, isolate or
 * zero-width character survives into a document's source or title, a collection's title, a
 * declared person's display name, or a session alias (docs/invariants.md#hostile-input-changes-nothing).
 * `\u202E` (RIGHT-TO-LEFT OVERRIDE) makes `invoice\u202Efdp.exe` read as `invoiceexe.pdf`.
 */
import { env } from "cloudflare:workers";
import { sessionIdOf } from "@src/domain/sessions/session-id";
import { beforeAll, describe, it } from "vitest";
import { api, createCollection, json, uniqueName, upload } from "../support/knowledge-api";
import { registerChat, sessionsApi } from "../support/sessions";

const INVISIBLE = /[\p{Cf}\p{Cc}]/u;
const HOSTILE_NAMES = [
  ["a right-to-left override", "invoice\u202Efdp.exe.md", "invoicefdp.exe.md"],
  ["isolates and marks", "\u2067报告\u2069\u200F说明.md", "报告说明.md"],
  ["zero-width characters and a BOM", "年\u200B度\u200D计\uFEFF划.md", "年度计划.md"],
  ["a tab and a bell", "第一\t行\u0007二.md", "第一 行 二.md"],
] as const;

beforeAll(async () => {
  await api("/healthz");
}, 120_000);

describe("imported file names", () => {
  it.for(HOSTILE_NAMES)("with %s are stored without them", async ([, name, seen], { expect }) => {
    const collection = uniqueName("names");
    await createCollection(collection);
    const r = await upload(collection, [{ name, content: "# 标题\n\n正文。" }]);
    expect(r.status).toBe(200);
    const rows = await env.DB.prepare("SELECT source_id, title FROM nodes WHERE collection = ?1")
      .bind(collection)
      .all<{ source_id: string | null; title: string | null }>();
    expect(rows.results.length).toBeGreaterThan(0);
    for (const row of rows.results) {
      expect(row.source_id).toBe(seen);
      expect(row.title ?? "").not.toMatch(INVISIBLE);
    }
    const listed = await json<{ documents: { source: string }[] }>(`/api/kb/collections/${collection}`);
    expect(JSON.stringify(listed)).not.toMatch(INVISIBLE);
    // The name as the admin's file system spells it still finds the document to delete.
    const removed = await api(
      `/api/kb/collections/${collection}/documents?source=${encodeURIComponent(name)}`,
      { method: "DELETE" },
    );
    expect(removed.status).toBe(200);
  });
});

describe("names an admin types", () => {
  it("a collection title and description keep no format characters", async ({ expect }) => {
    const collection = uniqueName("names");
    await createCollection(collection, { title: "产品\u202E手册", description: "第一行\u200B\n第二行" });
    const row = await env.DB.prepare("SELECT title, description FROM kb_collections WHERE name = ?1")
      .bind(collection)
      .first<{ title: string; description: string }>();
    expect(row).toEqual({ title: "产品手册", description: "第一行\n第二行" });
  });

  it("a session alias with an invisible character is refused and nothing is renamed", async ({ expect }) => {
    const group = `qq:group:NAMES${crypto.randomUUID().slice(0, 6)}`;
    await registerChat(group);
    const id = sessionIdOf(group);
    const refused = await sessionsApi(`/${id}/rename`, { alias: "club\u202Ebulc" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ field: "alias", reason: expect.stringContaining("invisible") });
    const zeroWidth = await sessionsApi(`/${id}/rename`, { alias: "cl\u200Bub" });
    expect(zeroWidth.status).toBe(400);
    const alias = await env.DB.prepare("SELECT alias FROM chat_sessions WHERE chat_key = ?1")
      .bind(group)
      .first<{ alias: string | null }>();
    expect(alias?.alias ?? null).toBeNull();
  });

  it("a declared person's display name is stored without format characters", async ({ expect }) => {
    const res = await api("/api/settings", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        identity: {
          enabled: true,
          people: [{ id: "alice", displayName: "\u202E小林\u200B", accounts: ["qq:user:NAMES1"] }],
        },
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { effective: { identity: { people: { displayName: string }[] } } };
    expect(body.effective.identity.people[0]?.displayName).toBe("小林");
    const empty = await api("/api/settings", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        identity: { enabled: true, people: [{ id: "bob", displayName: "\u200B\u202E", accounts: [] }] },
      }),
    });
    expect(empty.status).toBe(400);
    await env.DB.prepare("DELETE FROM settings").run();
  });
});
