// The local-mode count of a chat object's work (SQLite statements, alarm runs) that the
// webhook bench reports per message: it counts what the object runs and changes nothing.
import { exports } from "cloudflare:workers";
import { countedSql } from "@src/composition/dev/counted-sql";
import { describe, it } from "vitest";
import { inFreshChatObject } from "../../support/chat-object";
import { eventIdOf, groupAtBody, postQq, turnDone } from "../../support/qq-events";

describe("chat object work counter", () => {
  it("counts each statement and forwards it unchanged", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const work = { statements: 0, alarms: 0 };
      const sql = countedSql(storage.sql, work);
      sql.exec("CREATE TABLE t (x INTEGER)");
      sql.exec("INSERT INTO t VALUES (?), (?)", 1, 2);
      expect(sql.exec<{ n: number }>("SELECT sum(x) AS n FROM t").one().n).toBe(3);
      expect(work.statements).toBe(3);
      expect(sql.databaseSize).toBe(storage.sql.databaseSize);
    });
  });

  it("reports a chat's statements and alarm runs through the local bench route", async ({ expect }) => {
    const group = `WORK${crypto.randomUUID().replaceAll("-", "")}`;
    const body = groupAtBody({ group, member: "M1", text: "/ping" });
    expect((await postQq(body)).status).toBe(200);
    await turnDone(`qq:group:${group}`, eventIdOf(body));
    const res = await exports.default.fetch(
      new Request("https://bot.test/dev/bench/chat-work", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ chats: [`qq:group:${group}`] }),
      }),
    );
    expect(res.status).toBe(200);
    const work = (await res.json()) as { chats: number; statements: number; alarms: number };
    expect(work.chats).toBe(1);
    expect(work.alarms).toBeGreaterThanOrEqual(1);
    // The inbox INSERT, triage, the turn's rows, the send: well over a handful.
    expect(work.statements).toBeGreaterThan(10);
  });
});
