// GET /api/memory/credentials and POST /api/memory/credentials/erase: memory kept before a
// detector read its wording (docs/decisions/0980-memory-kept-before-a-detector-read-it.md).
// Own file: it erases memory items and counts audit rows, which every test of a file shares.
import { env } from "cloudflare:workers";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { adminApi, auditCount } from "../../support/admin-api";
import { newMemory, seedMemory, uid } from "../../support/memory";
import { nodesStored } from "../../support/memory-row";
import { candidateRow, summary } from "../../support/private-material";
import { storedAnywhere } from "../../support/stored-anywhere";

type Held = { nodeId: string; scope: string; kind: string; status: string; masked: string | null };

/** Every page of the listing, each checked to say no value. */
async function listed(values: readonly string[]): Promise<Held[]> {
  const held: Held[] = [];
  for (let offset: number | null = 0; offset !== null; ) {
    const res = await adminApi(`/memory/credentials?limit=2&offset=${offset}`);
    if (res.status !== 200) throw new Error(`listing answered ${res.status}`);
    const body = (await res.json()) as { held: Held[]; nextOffset: number | null };
    const said = JSON.stringify(body);
    for (const v of values) if (said.includes(v)) throw new Error(`the listing says ${v}`);
    held.push(...body.held);
    offset = body.nextOffset;
  }
  return held;
}

const erase = (ids: unknown) => adminApi("/memory/credentials/erase", { method: "POST", body: { ids } });

describe("memory that holds a credential as today's detectors read it", () => {
  it("is listed masked, page by page, and erased when every id named holds one", async ({ expect }) => {
    const tag = uid();
    const chat = `chat:qq:group:G${tag}`;
    const [inWords, inLetters, plain] = (await seedMemory([
      newMemory(chat, "记住：压缩包打开要输 酸辣土豆丝 别外传", { kind: "fact" }),
      newMemory(`person:P${tag}`, "班级网盘我设的是 Bj_2019cls 大家别乱删", { kind: "fact" }),
      newMemory(chat, "我们群的名字改成 摸鱼小分队 了", { kind: "fact" }),
    ])) as [string, string, string];
    const values = ["酸辣土豆丝", "Bj_2019cls"];
    const held = await listed(values);
    expect(held.find((h) => h.nodeId === inWords)).toEqual({
      nodeId: inWords,
      scope: chat,
      kind: "fact",
      status: "active",
      masked: `记住：压缩包打开要输 ${CREDENTIAL_MASK} 别外传`,
    });
    expect(held.map((h) => h.nodeId)).toContain(inLetters);
    expect(held.map((h) => h.nodeId)).not.toContain(plain);

    // One id that holds no credential, or names nothing, refuses the whole request.
    const audits = await auditCount("memory.forget");
    for (const ids of [
      [inWords, plain],
      [inWords, `m_missing_${tag}`],
    ]) {
      const refused = await erase(ids);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        field: "ids",
        reason: expect.stringContaining(ids[1] as string),
      });
    }
    expect(await nodesStored([inWords, inLetters, plain])).toHaveLength(3);
    expect(await auditCount("memory.forget")).toBe(audits);

    const done = await erase([inWords, inLetters]);
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ erased: [inWords, inLetters] });
    expect(await nodesStored([inWords, inLetters, plain])).toEqual([plain]);
    expect(await auditCount("memory.forget")).toBe(audits + 2);
    expect(await storedAnywhere(values)).toEqual([]);
  });

  it("lists chat summaries after the items, masked, and erases one with its day's record", async ({
    expect,
  }) => {
    const tag = uid();
    const chat = `qq:group:G${tag}`;
    const [item] = (await seedMemory([
      newMemory(`chat:${chat}`, "群里的 wifi 密码是 coffee4all", { kind: "fact" }),
    ])) as [string];
    const held = await summary(
      chat,
      "今天大家约了周六聚餐。小王说：压缩包打开要输 酸辣土豆丝 别外传",
      "public",
    );
    const plain = await summary(chat, "今天大家约了周六去爬山，小李带水。", "public");
    await env.DB.prepare(
      "INSERT INTO summary_days (chat_key, day, status, node_id, method, messages, created_at) VALUES (?1, '2026-12-06', 'written', ?2, 'extractive', 3, 1)",
    )
      .bind(chat, held)
      .run();
    const values = ["coffee4all", "酸辣土豆丝"];
    // Two a page: the pages cross from the items to the summaries.
    const listing = await listed(values);
    expect(listing.find((h) => h.nodeId === held)).toEqual({
      nodeId: held,
      scope: `chat:${chat}`,
      kind: "summary",
      status: "active",
      masked: `今天大家约了周六聚餐。小王说：压缩包打开要输 ${CREDENTIAL_MASK} 别外传`,
    });
    expect(listing.map((h) => h.nodeId)).toContain(item);
    expect(listing.map((h) => h.nodeId)).not.toContain(plain);
    expect((await erase([held, plain])).status).toBe(400);

    const audits = await auditCount("summary.forget");
    expect(await (await erase([held, item])).json()).toEqual({ erased: [held, item] });
    expect(await nodesStored([held, plain, item])).toEqual([plain]);
    expect(await auditCount("summary.forget")).toBe(audits + 1);
    const day = await env.DB.prepare("SELECT count(*) AS n FROM summary_days WHERE node_id = ?1")
      .bind(held)
      .first();
    expect(day).toEqual({ n: 0 });
    expect(await storedAnywhere(values)).toEqual([]);
  });

  it("lists a dreaming candidate that holds one, and withholds its text", async ({ expect }) => {
    const tag = uid();
    const chat = `qq:group:G${tag}`;
    const [item] = (await seedMemory([
      newMemory(`chat:${chat}`, "群里的 wifi 密码是 kf2026tea", { kind: "fact" }),
    ])) as [string];
    // Recorded before a detector read their wordings: a decision about no item, and the one
    // that wrote the item.
    const [rejected, inserted, archived] = [
      await candidateRow(chat, "小王说压缩包打开要输 酸辣土豆丝 别外传", "rejected", null),
      await candidateRow(chat, "群里的 wifi 密码是 kf2026tea", "insert", item),
      // An archive's reason, written by the model before it was masked (remember.ts).
      await candidateRow(chat, "小明喜欢猫", "archive", null, "memory_forget: 他说 wifi 密码是 Wq2026pass"),
    ];
    const values = ["酸辣土豆丝", "kf2026tea", "Wq2026pass"];
    const listing = await listed(values);
    expect(listing.find((h) => h.nodeId === `candidate:${rejected}`)).toEqual({
      nodeId: `candidate:${rejected}`,
      scope: `chat:${chat}`,
      kind: "candidate",
      status: "rejected",
      masked: `小王说压缩包打开要输 ${CREDENTIAL_MASK} 别外传`,
    });
    expect(listing.map((h) => h.nodeId)).toEqual(expect.arrayContaining([item, `candidate:${inserted}`]));
    const audits = await auditCount("candidate.withhold");
    // Named before the item: the item's erasure takes its candidate, whatever the order.
    expect(listing.map((h) => h.nodeId)).toContain(`candidate:${archived}`);
    const ids = [`candidate:${inserted}`, `candidate:${rejected}`, `candidate:${archived}`, item];
    expect(await (await erase(ids)).json()).toEqual({ erased: ids });
    expect(await auditCount("candidate.withhold")).toBe(audits + 2);
    const rows = await env.DB.prepare(
      "SELECT id, text, decision, reason FROM memory_candidates WHERE id IN (?1, ?2, ?3) ORDER BY id",
    )
      .bind(rejected, inserted, archived)
      .all();
    expect(rows.results).toEqual([
      { id: rejected, text: "[credential withheld]", decision: "rejected", reason: "credential" },
      { id: archived, text: "[credential withheld]", decision: "archive", reason: "credential" },
    ]);
    expect(await storedAnywhere(values)).toEqual([]);
    expect((await erase([`candidate:${rejected}`])).status).toBe(400);
  });

  it.for([
    ["no ids", { ids: [] }],
    ["ids that are not a list", { ids: "m_1" }],
    ["more than a hundred ids", { ids: Array.from({ length: 101 }, (_, i) => `m_${i}`) }],
    ["an id of another shape", { ids: ["m 1; DROP TABLE nodes"] }],
    ["another field", { ids: ["m_1"], all: true }],
  ] as const)("refuses a body with %s, and changes nothing", async ([, body], { expect }) => {
    const audits = await auditCount();
    const res = await adminApi("/memory/credentials/erase", { method: "POST", body });
    expect(res.status).toBe(400);
    expect(await auditCount()).toBe(audits);
  });

  it("refuses a page out of bounds", async ({ expect }) => {
    expect((await adminApi("/memory/credentials?limit=0")).status).toBe(400);
    expect((await adminApi("/memory/credentials?limit=201")).status).toBe(400);
    expect((await adminApi("/memory/credentials?offset=-1")).status).toBe(400);
    expect((await adminApi("/memory/credentials?what=1")).status).toBe(400);
  });
});
