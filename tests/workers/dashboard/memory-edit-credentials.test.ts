// Own file: it edits memory items and counts audit rows, which every test of a file shares.
import { env } from "cloudflare:workers";
import { describe, it } from "vitest";
import { adminApi, auditCount } from "../../support/admin-api";
import { dashboardPage } from "../../support/admin-session";
import { newMemory, nodeColumns, seedMemory, uid } from "../../support/memory";

const nodeRow = (id: string) =>
  nodeColumns(id, "raw_text, retrieval_text, retrieval_tokens, fts_tokens, content_hash, updated_at");

const patch = (id: string, body: unknown) => adminApi(`/memory/${id}`, { method: "PATCH", body });

/** How many memory nodes hold exactly `text`. */
const storedAs = (text: string) =>
  env.DB.prepare("SELECT count(*) AS n FROM nodes WHERE raw_text = ?").bind(text).first<number>("n");

describe("an admin's memory edit that holds a credential", () => {
  it.for([
    ["a password said in words", "群里的 wifi 密码是 coffee4all"],
    ["an API key", "部署用 sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z-Q7rS0tU"],
    ["text that already holds the mask", "群里的 wifi 密码是 [已隐藏的凭据]"],
    // No rule reads these words as a value; memory still refuses to say what a password is.
    ["a password's value in words, traditional characters", "群裡的 wifi 密碼是 作業寫完了嗎老鐵"],
  ])("is refused naming the text, and changes nothing: %s", async ([, text], { expect }) => {
    const chat = `qq:group:G${uid()}`;
    const [id] = await seedMemory([newMemory(`chat:${chat}`, "群里的 wifi 在前台问", { kind: "fact" })]);
    const before = await nodeRow(id as string);
    const audits = await auditCount();
    const res = await patch(id as string, { text, importance: 0.9 });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: "invalid",
      field: "text",
      reason: "looks like a password, token, key or cookie; never stored",
    });
    expect(await nodeRow(id as string)).toEqual(before);
    expect(await auditCount()).toBe(audits);
  });

  it("is refused on the dashboard's edit form too", async ({ expect }) => {
    const chat = `qq:group:G${uid()}`;
    const [id] = await seedMemory([newMemory(`chat:${chat}`, "群里的 wifi 在前台问", { kind: "fact" })]);
    const before = await nodeRow(id as string);
    const res = await dashboardPage(`/admin/memory/${id}/edit`, {
      text: "群里的 wifi 密码是 coffee4all",
      kind: "fact",
      sensitivity: "public",
      importance: "0.5",
      portable: "true",
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("text looks like a password, token, key or cookie");
    expect(await nodeRow(id as string)).toEqual(before);
  });

  it("is refused on the dashboard's add form when only the reader of values finds it", async ({ expect }) => {
    const text = "车库门 进去要 Gx71#pp";
    const audits = await auditCount();
    const res = await dashboardPage("/admin/memory/add", {
      scope: `chat:qq:group:G${uid()}`,
      text,
      kind: "fact",
      sensitivity: "public",
      importance: "0.5",
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("text looks like a password, token, key or cookie");
    expect(await storedAs(text)).toBe(0);
    expect(await auditCount()).toBe(audits);
  });

  // Values in wordings no rule reads: a message that said them would be masked where it came in
  // by a trained reader of values, so an admin who types them is refused the same way.
  it.for([
    "咱家那个智能锁临时码 Qw81zz 用完记得删",
    "进群验证填 奥利给冲鸭 就行",
    "监控摄像头的后台 我设的 Cam#8899ip",
    "备用钥匙放在花盆下，保险箱是 Kz55&qq",
    "後門的保險箱 我設的 Kz55&qq",
    "the garage keypad is set to Gx71#pp now",
  ])(
    "is refused when only the reader of values finds it, as a new item and as an edit: %s",
    async (text, { expect }) => {
      const chat = `qq:group:G${uid()}`;
      const [id] = await seedMemory([newMemory(`chat:${chat}`, "群里的 wifi 在前台问", { kind: "fact" })]);
      const before = await nodeRow(id as string);
      const audits = await auditCount();
      const reason = "looks like a password, token, key or cookie; never stored";
      const edit = await patch(id as string, { text });
      expect(edit.status).toBe(400);
      expect(await edit.json()).toMatchObject({ field: "text", reason });
      const add = await adminApi("/memory", {
        method: "POST",
        body: { scope: `chat:${chat}`, text, kind: "fact" },
      });
      expect(add.status).toBe(400);
      expect(await add.json()).toMatchObject({ field: "text", reason });
      expect(await nodeRow(id as string)).toEqual(before);
      expect(await auditCount()).toBe(audits);
      expect(await storedAs(text)).toBe(0);
    },
  );

  it("without one still goes through", async ({ expect }) => {
    const chat = `qq:group:G${uid()}`;
    const [id] = await seedMemory([newMemory(`chat:${chat}`, "群里的 wifi 在前台问", { kind: "fact" })]);
    const res = await patch(id as string, { text: "群里的 wifi 在前台问小王" });
    expect(res.status).toBe(200);
    expect((await nodeRow(id as string))?.raw_text).toBe("群里的 wifi 在前台问小王");
  });
});
