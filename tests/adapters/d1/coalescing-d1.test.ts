// Reads started together go to D1 as one batch; each caller still gets its own statement's
// result or error; writes and reads started one after another go alone.
import { env } from "cloudflare:workers";
import { coalescingD1 } from "@src/adapters/d1/coalescing-d1";
import { countingD1 } from "@src/adapters/d1/counting-d1";
import { describe, it } from "vitest";

function both() {
  const counter = countingD1(env.DB, "local");
  return { db: coalescingD1(counter.db), bill: counter.bill };
}

describe("coalescingD1", () => {
  it("sends reads started together in one round trip, each with its own result", async ({ expect }) => {
    const { db, bill } = both();
    const [a, b, c] = await Promise.all([
      db.prepare("SELECT ?1 AS v").bind(1).first<{ v: number }>(),
      db.prepare("SELECT ?1 AS v").bind(2).all<{ v: number }>(),
      db.prepare("SELECT ?1 AS v").bind(3).first<number>("v"),
    ]);
    expect([a?.v, b.results[0]?.v, c]).toEqual([1, 2, 3]);
    expect(bill()).toMatchObject({ statements: 3, roundTrips: 1 });
  });

  it("sends the same statement with the same values once", async ({ expect }) => {
    const { db, bill } = both();
    const same = () => db.prepare("SELECT ?1 AS v").bind("x").first<{ v: string }>();
    const [a, b, c] = await Promise.all([same(), same(), db.prepare("SELECT 'y' AS v").first()]);
    expect([a?.v, b?.v, c]).toEqual(["x", "x", { v: "y" }]);
    expect(bill()).toMatchObject({ statements: 2, roundTrips: 1 });
  });

  it("gives a failing statement's error to its caller only", async ({ expect }) => {
    const { db } = both();
    const [good, bad] = await Promise.allSettled([
      db.prepare("SELECT 7 AS v").first<{ v: number }>(),
      db.prepare("SELECT * FROM no_such_table").all(),
    ]);
    expect(good).toEqual({ status: "fulfilled", value: { v: 7 } });
    expect(bad.status).toBe("rejected");
  });

  it("sends writes and reads started one after another alone", async ({ expect }) => {
    await env.DB.exec("CREATE TABLE IF NOT EXISTS coalesce_probe (k TEXT)");
    const { db, bill } = both();
    const key = `coalesce-${crypto.randomUUID()}`;
    await db.prepare("SELECT 1").all();
    await db.prepare("SELECT 2").all();
    await Promise.all([
      db.prepare("INSERT INTO coalesce_probe (k) VALUES (?)").bind(key).run(),
      db.prepare("SELECT 3").all(),
    ]);
    expect(bill()).toMatchObject({ statements: 4, roundTrips: 4 });
    const row = await env.DB.prepare("SELECT k FROM coalesce_probe WHERE k = ?").bind(key).first();
    expect(row).toEqual({ k: key });
  });
});
