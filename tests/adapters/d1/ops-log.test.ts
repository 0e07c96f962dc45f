import { env } from "cloudflare:workers";
import { describe, it } from "vitest";
import { D1OpsLog } from "../../../src/adapters/d1/d1-ops-log";

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
