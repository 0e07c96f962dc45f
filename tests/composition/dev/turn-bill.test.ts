// The per-turn bill: counted over the real local D1, nothing persisted, local mode only, and
// the packed prompt within the context budget however long the chat's context is.
import { env } from "cloudflare:workers";
import { countingD1 } from "@src/adapters/d1/counting-d1";
import { chatProbeClient } from "@src/composition/dev/chat-probe-client";
import type { ChatKey } from "@src/domain/chat/chat-address";
import { describe, it } from "vitest";
import { messageEvent } from "../../fakes/inbound";

describe("the chat object's local probe: the turn bill", () => {
  it("counts the turn's D1 statements and rows and persists nothing", async ({ expect }) => {
    const chat = `qq:group:BILL${crypto.randomUUID().replaceAll("-", "")}`;
    const stub = env.CHAT_SESSION.getByName(chat);
    const bill = await chatProbeClient(env, chat as ChatKey).bill(
      messageEvent({ chat, text: "上次说的火锅怎么样了？" }),
    );
    expect(bill.ok).toBe(true);
    expect(bill.replies.length).toBeGreaterThan(0);
    expect(bill.d1.statements).toBe(bill.d1.sql.length);
    expect(bill.d1.statements).toBeGreaterThan(0);
    expect(bill.d1.roundTrips).toBeGreaterThan(0);
    expect(bill.d1.roundTrips).toBeLessThanOrEqual(bill.d1.statements);
    expect(bill.promptTokens.length).toBeGreaterThan(0);
    expect(await stub.stats()).toMatchObject({ open: 0, unflushed: 0, recentTurns: 0 });
  });

  it("keeps the packed prompt within turn.contextTokenBudget with a long context and message", async ({
    expect,
  }) => {
    const chat = `qq:group:BUDGET${crypto.randomUUID().replaceAll("-", "")}`;
    const long = "今天的会议讨论了很多事情，包括预算、排期和人员安排。".repeat(200);
    const bill = await chatProbeClient(env, chat as ChatKey).bill(messageEvent({ chat, text: long }));
    expect(bill.promptTokens.length).toBeGreaterThan(0);
    for (const tokens of bill.promptTokens) expect(tokens).toBeLessThanOrEqual(bill.contextTokenBudget);
  });

  it("refuses to count outside local mode", ({ expect }) => {
    expect(() => countingD1(env.DB, "production")).toThrow("local mode only");
  });

  it("counts a batch as one round trip with every statement and its rows", async ({ expect }) => {
    const counter = countingD1(env.DB, "local");
    await counter.db.batch([
      counter.db.prepare("SELECT 1 AS one"),
      counter.db.prepare("SELECT count(*) AS n FROM settings"),
    ]);
    await counter.db.prepare("SELECT 2 AS two").first();
    const bill = counter.bill();
    expect(bill).toMatchObject({ statements: 3, roundTrips: 2 });
    expect(bill.sql[0]).toBe("(batch) SELECT 1 AS one");
    expect(counter.bill().statements).toBe(0);
  });
});

describe("the turn's knowledge catalogue", () => {
  it("is read from D1 once per TTL, not once per turn", async ({ expect }) => {
    const chat = `qq:group:CAT${crypto.randomUUID().replaceAll("-", "")}`;
    const probe = chatProbeClient(env, chat as ChatKey);
    await probe.bill(messageEvent({ chat, text: "火锅怎么样" }));
    const second = await probe.bill(messageEvent({ chat, text: "露营怎么样" }));
    expect(second.d1.statements).toBeGreaterThan(0);
    expect(second.d1.sql.filter((s) => s.includes("FROM kb_collections"))).toEqual([]);
  });
});
