/**
 * Validity in time over real D1 (docs/memory.md#validity-in-time): a write records when its
 * statement became true, a close records when it stopped and what closed it, keeps the item's
 * text and sensitivity, and the SQL of recall reads closed items only for a question about the
 * past — through the same gate, so a group reader never gets a private one.
 */
import { env } from "cloudflare:workers";
import { recalledText, recallMemory } from "@src/domain/memory/recall";
import { forget, remember } from "@src/domain/memory/remember";
import { turnScopes } from "@src/domain/memory/scope";
import { describe, it } from "vitest";
import { memoryStore, rememberRequest, speakingPerson, uid } from "../../support/memory";

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 2, 1, 4);

const person = speakingPerson;

const say = (p: ReturnType<typeof person>, text: string, where: "priv" | "group", now: number) =>
  remember(memoryStore(), rememberRequest(p, text, where, now));

async function ask(p: ReturnType<typeof person>, text: string, where: "priv" | "group", now: number) {
  const found = await recallMemory(
    { index: memoryStore() },
    {
      text,
      scopes: turnScopes(p[where]),
      soft: false,
      limit: 10,
      now,
      halfLifeDays: 30,
      timeZone: "Asia/Shanghai",
    },
  );
  return found.map(recalledText);
}

describe("D1 memory validity", () => {
  it("records event time on write and closes the older item with its end and its closer", async ({
    expect,
  }) => {
    const p = person();
    const first = await say(p, "我住在北京", "priv", T0);
    const second = await say(p, "我搬到上海了", "priv", T0 + 10 * DAY);
    const oldId = first.ok ? first.value[0]?.item.nodeId : "";
    const newId = second.ok ? second.value[0]?.item.nodeId : "";
    const row = await env.DB.prepare(
      "SELECT status, sensitivity, raw_text, valid_from, valid_to, closed_by FROM nodes WHERE node_id = ?",
    )
      .bind(oldId)
      .first();
    expect(row).toEqual({
      status: "superseded",
      sensitivity: "private",
      raw_text: `${p.name}住在北京`,
      valid_from: T0,
      valid_to: T0 + 10 * DAY,
      closed_by: newId,
    });
    const edge = await env.DB.prepare(
      "SELECT src_id FROM edges WHERE dst_id = ? AND edge_type = 'supersedes'",
    )
      .bind(oldId)
      .first();
    expect(edge).toEqual({ src_id: newId });
    expect(await ask(p, `${p.name}住在哪`, "priv", T0 + 20 * DAY)).toEqual([`${p.name}住在上海`]);
    expect((await ask(p, `${p.name}以前住在哪`, "priv", T0 + 20 * DAY))[0]).toBe(
      `（过去：2025-03-01 至 2025-03-11）${p.name}住在北京`,
    );
    // Still the person's to forget, in their private chat.
    const gone = await forget(memoryStore(), {
      nodeId: oldId ?? "",
      scopes: p.priv,
      runId: `forget:${uid()}`,
      chatKey: p.priv.session,
      now: T0 + 21 * DAY,
      reason: "command",
      how: "erase",
    });
    expect(gone.ok).toBe(true);
    // Erased: the row, the edge that named it, and the candidate rows that copied its text.
    const after = await env.DB.prepare(
      `SELECT (SELECT count(*) FROM nodes WHERE node_id = ?1) AS nodes,
              (SELECT count(*) FROM edges WHERE src_id = ?1 OR dst_id = ?1) AS edges,
              (SELECT count(*) FROM memory_candidates WHERE node_id = ?1 OR target_node_id = ?1) AS candidates,
              (SELECT count(*) FROM nodes WHERE node_id = ?2) AS kept`,
    )
      .bind(oldId, newId)
      .first();
    expect(after).toEqual({ nodes: 0, edges: 0, candidates: 0, kept: 1 });
    expect((await ask(p, `${p.name}以前住在哪`, "priv", T0 + 22 * DAY)).join("\n")).not.toContain("北京");
  });

  it("never gives a group the closed item when what closed it is private", async ({ expect }) => {
    const p = person();
    await say(p, "我住在北京", "group", T0);
    await say(p, "我搬到上海了", "priv", T0 + 10 * DAY);
    for (const q of [
      `${p.name}住在哪`,
      `${p.name}以前住在哪`,
      `${p.name}去年住在哪`,
      "住在",
      "before 住在",
    ]) {
      const heard = (await ask(p, q, "group", Date.UTC(2026, 5, 1))).join("\n");
      expect(heard, q).not.toMatch(/北京|上海|过去/);
    }
  });

  it("never gives a group a private closed item, even when a public item closed it", async ({ expect }) => {
    const p = person();
    await say(p, "我在腾讯上班", "priv", T0);
    // The group cannot see the private value, so its statement does not close it.
    await say(p, "我跳槽到了阿里", "group", T0 + 10 * DAY);
    for (const q of [`${p.name}在哪工作`, `${p.name}以前在哪工作`, `${p.name}之前在哪上班`]) {
      const heard = (await ask(p, q, "group", T0 + 20 * DAY)).join("\n");
      expect(heard, q).not.toMatch(/腾讯|过去/);
    }
    expect(await ask(p, `${p.name}在哪工作`, "group", T0 + 20 * DAY)).toEqual([`${p.name}在阿里工作`]);
  });
});
