// Short-term context: the newest turns in order, and never more than the hard cap stored.

import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { RecentTurns } from "@src/durable-objects/recent-turns";
import { describe, it } from "vitest";

describe("RecentTurns", () => {
  it("lists the newest turns oldest first and trims past 200 rows, newest kept", async ({ expect }) => {
    const stub = env.CHAT_SESSION.getByName(`qq:group:RECENT${crypto.randomUUID().replaceAll("-", "")}`);
    await runInDurableObject(stub, async (_instance, state) => {
      const recent = new RecentTurns(state.storage.sql);
      // Out of order on purpose: the order is by ts, then by insertion.
      for (let i = 0; i < 230; i++)
        recent.append(
          {
            role: i % 2 === 0 ? "user" : "assistant",
            name: null,
            text: `t${i}`,
            ts: 1000 + (i % 2 === 0 ? i : i - 1),
          },
          i % 2 === 0 ? "qq:user:U1" : null,
        );
      const all = state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM recent_turns").one().n;
      expect(all).toBe(200);
      expect(recent.list(3).map((t) => t.text)).toEqual(["t227", "t228", "t229"]);
      const kept = recent.list(500).map((t) => t.text);
      expect(kept).toHaveLength(200);
      expect(kept[0]).toBe("t30");
    });
  });
});
