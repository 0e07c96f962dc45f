import { env } from "cloudflare:workers";
import { knowledgeAccess } from "@src/composition/common/knowledge-services";
import { kbManageTool } from "@src/domain/agent/tools/kb-manage-tool";
import { gateFor } from "@src/domain/authorization/authorization-gate";
import type { Settings } from "@src/domain/config/settings";
import type { AuditEntry } from "@src/domain/kernel/audit";
import { describe, it } from "vitest";
import { ADMIN, ADMIN_GATE_REFUSALS, MEMBER, withIdentity } from "../../../fakes/identity-settings";
import { turnPorts } from "../../../fakes/turn-ports";
import { createCollection, uniqueName, upload } from "../../../support/knowledge-api";
import { oneToolCall } from "../../../support/tool-turn";
import { senderContext } from "../../../support/turn-context";

const CHAT = "qq:group:KB1";

const context = (sender: string, settings: Settings) => senderContext(CHAT, "管理知识库", sender, settings);

/** One turn in which the model calls kb_manage with `args`; the tool's answer and the audit. */
const manage = (args: Record<string, unknown>, sender = ADMIN, settings = withIdentity()) =>
  oneToolCall("kb_manage", args, context(sender, settings), { knowledge: knowledgeAccess(env) });

function gateReason(settings: Settings, sender: string): string {
  const refused = gateFor(settings.identity).requireAdmin("kb_manage", sender);
  return refused.ok ? "" : refused.error.reason;
}

async function count(sql: string, ...args: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql)
    .bind(...args)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** A collection of two documents, each with its own marker word; what D1 holds of each. */
async function seeded() {
  const name = uniqueName("manage");
  const markers = [1, 2].map(() => `zqx${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`);
  await createCollection(name, { chunkSize: 60, title: "测试库" });
  await upload(name, [
    { name: "a.md", content: `# 甲 ${markers[0]}\n\n${"第一篇的内容。".repeat(20)} ${markers[0]}` },
    { name: "b.md", content: `# 乙 ${markers[1]}\n\n${"第二篇的内容。".repeat(20)} ${markers[1]}` },
  ]);
  const hashesOf = async (source: string) =>
    (
      await env.DB.prepare(
        "SELECT DISTINCT content_hash AS h FROM nodes WHERE scope_id = ?1 AND source_id = ?2",
      )
        .bind(name, source)
        .all<{ h: string }>()
    ).results.map((r) => r.h);
  const state = async (source: string, marker: string) => ({
    nodes: await count(
      "SELECT count(*) AS n FROM nodes WHERE scope_id = ?1 AND source_id = ?2",
      name,
      source,
    ),
    // The collection's rows are indexed under its namespace (migration 0200).
    fts: await count("SELECT count(*) AS n FROM nodes_fts WHERE nodes_fts MATCH ?1", `"${ns}${marker}"`),
    embeddings: await count(
      "SELECT count(*) AS n FROM embeddings WHERE content_hash IN (SELECT value FROM json_each(?1))",
      JSON.stringify(hashes[source]),
    ),
  });
  const hashes: Record<string, string[]> = { "a.md": await hashesOf("a.md"), "b.md": await hashesOf("b.md") };
  const ns =
    (
      await env.DB.prepare("SELECT fts_ns FROM kb_collections WHERE name = ?1")
        .bind(name)
        .first<{ fts_ns: string }>()
    )?.fts_ns ?? "";
  return {
    name,
    a: () => state("a.md", markers[0] ?? ""),
    b: () => state("b.md", markers[1] ?? ""),
    collections: () => count("SELECT count(*) AS n FROM kb_collections WHERE name = ?1", name),
  };
}

describe("kb_manage", () => {
  it.for(ADMIN_GATE_REFUSALS)(
    "refuses %s with the gate's reason and changes nothing",
    async ([, sender, settings, reason], { expect }) => {
      const kb = await seeded();
      const before = [await kb.a(), await kb.b()];
      for (const args of [
        { action: "delete_collection", collection: kb.name },
        { action: "delete_document", collection: kb.name, source: "a.md" },
        { action: "list" },
      ]) {
        const { answer, audit } = await manage(args, sender, settings);
        expect(answer).toBe(`拒绝：${gateReason(settings, sender)}`);
        expect(answer).toContain(reason);
        expect(audit).toMatchObject([{ action: "kb_manage", actor: sender, outcome: "refused" }]);
      }
      expect([await kb.a(), await kb.b()]).toEqual(before);
      expect(await kb.collections()).toBe(1);
    },
  );

  it("checks the gate itself when called without the turn's guard, and audits the refusal", async ({
    expect,
  }) => {
    const kb = await seeded();
    const recorded: AuditEntry[] = [];
    const services = {
      ...turnPorts({ knowledge: knowledgeAccess(env) }),
      audit: { record: (e: AuditEntry) => recorded.push(e) },
    };
    const result = await kbManageTool.run(
      { action: "delete_collection", collection: kb.name },
      context(MEMBER, withIdentity()),
      services,
    );
    expect(result.ok).toBe(false);
    expect(result.content).toContain("不在 identity.admins 中");
    expect(recorded).toMatchObject([
      { action: "kb.delete_collection", target: kb.name, outcome: "refused", detail: { cause: "not-admin" } },
    ]);
    expect(await kb.collections()).toBe(1);
  });

  it("lists collections and documents for an admin", async ({ expect }) => {
    const kb = await seeded();
    const list = await manage({ action: "list" });
    expect(list.answer).toMatch(new RegExp(`- ${kb.name}（测试库）：2 篇文档，\\d+ 段`));
    expect(list.audit).toMatchObject([{ action: "kb.list", actor: ADMIN, outcome: "ok" }]);
    const docs = await manage({ action: "documents", collection: kb.name });
    expect(docs.answer).toContain(`集合 ${kb.name}（测试库） 有 2 篇文档：`);
    expect(docs.answer).toMatch(/- a\.md（甲 zqx\w+）：\d+ 段，更新于 /);
    expect(docs.answer).toMatch(/- b\.md（乙 zqx\w+）：\d+ 段，更新于 /);
    expect(docs.audit).toMatchObject([
      { action: "kb.documents", target: kb.name, outcome: "ok", detail: { documents: 2 } },
    ]);
  });

  it("deletes one document with its FTS rows and embeddings, and says what went", async ({ expect }) => {
    const kb = await seeded();
    const before = await kb.a();
    expect(before.nodes).toBeGreaterThan(0);
    expect(before.fts).toBeGreaterThan(0);
    expect(before.embeddings).toBeGreaterThan(0);
    const b = await kb.b();

    const { answer, audit } = await manage({
      action: "delete_document",
      collection: kb.name,
      source: "a.md",
    });
    expect(answer).toMatch(
      new RegExp(
        `^已从集合 ${kb.name} 删除文档 a\\.md（甲 zqx\\w+）：\\d+ 段（共 ${before.nodes} 个节点）及其全文索引、向量和不再被引用的嵌入。$`,
      ),
    );
    expect(await kb.a()).toEqual({ nodes: 0, fts: 0, embeddings: 0 });
    expect(await kb.b()).toEqual(b);
    expect(audit).toMatchObject([
      {
        action: "kb.delete_document",
        actor: ADMIN,
        target: kb.name,
        outcome: "ok",
        detail: { via: "tool", source: "a.md", nodes: before.nodes },
      },
    ]);
  });

  it("deletes a whole collection and leaves nothing of it behind", async ({ expect }) => {
    const kb = await seeded();
    const nodes = (await kb.a()).nodes + (await kb.b()).nodes;
    const { answer, audit } = await manage({ action: "delete_collection", collection: kb.name });
    expect(answer).toMatch(
      new RegExp(`^已删除集合 ${kb.name}（测试库）：2 篇文档、\\d+ 段（共 ${nodes} 个节点）及其全文索引`),
    );
    expect(await kb.a()).toEqual({ nodes: 0, fts: 0, embeddings: 0 });
    expect(await kb.b()).toEqual({ nodes: 0, fts: 0, embeddings: 0 });
    expect(await kb.collections()).toBe(0);
    expect(audit).toMatchObject([
      { action: "kb.delete_collection", target: kb.name, outcome: "ok", detail: { documents: 2, nodes } },
    ]);
  });

  it.for([
    [
      "an unknown collection",
      { action: "delete_collection", collection: "no-such-kb" },
      "没有名为 no-such-kb 的集合；什么都没有删除。",
    ],
    [
      "a document of an unknown collection",
      { action: "delete_document", collection: "no-such-kb", source: "a.md" },
      "没有名为 no-such-kb 的集合；什么都没有删除。",
    ],
    [
      "an unknown source",
      { action: "delete_document", source: "zzz.md" },
      "中没有来源为 zzz.md 的文档；什么都没有删除。",
    ],
    [
      "a missing source",
      { action: "delete_document" },
      "delete_document 需要 collection（集合名）和 source（导入时的文件名）；什么都没有删除。",
    ],
    [
      "the documents of an unknown collection",
      { action: "documents", collection: "no-such-kb" },
      "没有名为 no-such-kb 的集合。",
    ],
    [
      "an unknown action",
      { action: "purge" },
      "action 必须是 list、documents、delete_document 或 delete_collection",
    ],
  ] as const)("refuses %s clearly and changes nothing", async ([, args, message], { expect }) => {
    const kb = await seeded();
    const before = [await kb.a(), await kb.b()];
    const withCollection =
      "collection" in args || args.action !== "delete_document" ? args : { ...args, collection: kb.name };
    const { answer, audit } = await manage(withCollection);
    expect(answer.endsWith(message)).toBe(true);
    expect(audit).toMatchObject([{ actor: ADMIN, outcome: "invalid" }]);
    expect([await kb.a(), await kb.b()]).toEqual(before);
    expect(await kb.collections()).toBe(1);
  });
});
