import { env } from "cloudflare:workers";
import { D1OpsLog } from "@src/adapters/d1/d1-ops-log";
import { describe, it } from "vitest";

describe("the ops log", () => {
  it("keeps the newest 200 rows of a kind and leaves other kinds alone", async ({ expect }) => {
    const log = new D1OpsLog(env.DB);
    await log.record("retention", {
      at: 1,
      source: "cron",
      message: "deleted 0 message(s)",
      detail: { deleted: 0 },
    });
    for (let i = 0; i < 205; i++)
      await log.record("error", { at: 1000 + i, source: "GET /x", message: `e${i}` });
    const count = (kind: string) =>
      env.DB.prepare("SELECT count(*) AS n FROM ops_log WHERE kind = ?").bind(kind).first<{ n: number }>();
    expect(await count("error")).toEqual({ n: 200 });
    expect(await count("retention")).toEqual({ n: 1 });
    const [newest] = await log.recent("error", 1);
    expect(newest?.message).toBe("e204");
    expect((await log.recent("error", 500)).at(-1)?.message).toBe("e5");
  });
});

describe("the ops log keeps no credential", () => {
  // An unhandled error's text is whatever the failing code put in it: a request's query, a
  // command, a message. The log masks it as audit rows are masked, whatever the writer did.
  it("masks the source, the message and every string of the detail", async ({ expect }) => {
    const log = new D1OpsLog(env.DB);
    const secrets = ["Qq778899x", "abc123def456ghi789jkl", "foobared77", "Hunter22x"];
    await log.record("error", {
      at: 5000,
      source: "GET /api/x?access_token=abc123def456ghi789jkl",
      message: "TypeError: redis-cli -a foobared77 failed after 密码是 Qq778899x",
      detail: { body: { note: "password: Hunter22x" }, list: ["ok"] },
    });
    const row = await env.DB.prepare("SELECT source, message, detail FROM ops_log WHERE at = 5000").first();
    const stored = JSON.stringify(row);
    for (const secret of secrets) expect(stored).not.toContain(secret);
    expect(row?.message).toContain("TypeError: redis-cli -a");
    const [entry] = await log.recent("error", 1);
    expect(entry?.detail).toEqual({ body: { note: "password: [已隐藏的凭据]" }, list: ["ok"] });
  });
});
