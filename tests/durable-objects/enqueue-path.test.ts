// The ACK path: enqueue writes one inbox row and reads no D1, and a turn in progress does not
// hold a second enqueue of the same chat object.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import { DRAIN_WATCHDOG_MS } from "@src/durable-objects/alarm-schedule";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { TRIAGE_SLICE } from "@src/durable-objects/inbox-drain";
import { describe, it, vi } from "vitest";
import { messageEvent } from "../fakes/inbound";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { eventIdOf, groupAtBody, postQq, turnDone } from "../support/qq-events";
import { eventually } from "../support/wait";

/** A D1 binding that counts every use and then fails it. */
function throwingDb(): { db: D1Database; uses: string[] } {
  const uses: string[] = [];
  const db = new Proxy({} as D1Database, {
    get(_target, prop) {
      return (...args: unknown[]) => {
        uses.push(`${String(prop)}(${String(args[0] ?? "")})`);
        throw new Error(`D1 used on the ACK path: ${String(prop)}`);
      };
    },
  });
  return { db, uses };
}

/**
 * A chat whose first turn stops at the model until released, so a test can act while that
 * turn is still running in the chat's object.
 */
function gatedFirstTurn(prefix: string, answers: [string, string]) {
  const real = chatObjectServices.create.bind(chatObjectServices);
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started = false;
  const model = new ScriptedChatModel([
    async () => {
      started = true;
      await gate;
      return { text: answers[0] };
    },
    { text: answers[1] },
  ]);
  vi.spyOn(chatObjectServices, "create").mockImplementation((e) => ({ ...real(e), model }));
  const group = `${prefix}${crypto.randomUUID().replaceAll("-", "")}`;
  return {
    chatKey: `qq:group:${group}`,
    model,
    release: () => release(),
    /** Posts the chat's first message, by M1; returns once its turn is held at the model. */
    postFirst: async (text: string) => {
      const body = groupAtBody({ group, member: "M1", text });
      const res = await postQq(body);
      if (res.status !== 200) throw new Error(`the first message was answered ${res.status}`);
      await eventually(async () => started, 10_000, "the first turn to reach the model");
      return body;
    },
    /** Posts M2's message while the first turn is held; returns it with its status and timing. */
    postSecond: async (text: string) => {
      const body = groupAtBody({ group, member: "M2", text });
      const postedAt = Date.now();
      const { status } = await postQq(body);
      return { body, postedAt, status, ackMs: Date.now() - postedAt };
    },
  };
}

/** The replies of the turn for this posted body, once it is done. */
const repliesTo = async (chatKey: string, body: string, timeoutMs: number) =>
  (await turnDone(chatKey, eventIdOf(body), timeoutMs)).replies;

/** One reply with this text, sent. */
const sentOne = (text: string) => [{ text, state: "sent" }];

describe("ChatSession.enqueue", () => {
  it("accepts, deduplicates and masks events with a D1 binding that throws on any use", async ({
    expect,
  }) => {
    const chat = `qq:group:NODB${crypto.randomUUID().replaceAll("-", "")}`;
    const stub = env.CHAT_SESSION.getByName(chat);
    const { db, uses } = throwingDb();
    const results = await runInDurableObject(stub, async (instance: ChatSession, state) => {
      const holder = instance as unknown as { env: Env };
      const real = holder.env;
      holder.env = { ...real, DB: db };
      try {
        const addressed = messageEvent({
          chat,
          text: "密钥是 sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z-Q7rS0tU",
          id: "M1",
        });
        const chatter = messageEvent({ chat, text: "随便聊聊", id: "M2", addressedToBot: false });
        const out = [
          await instance.enqueue(addressed),
          await instance.enqueue(chatter),
          await instance.enqueue(addressed),
          await instance.enqueue({ ...chatter, eventId: "another-event-same-message" }),
        ];
        const rows = state.storage.sql
          .exec<{ payload: string; triaged: number }>("SELECT payload, triaged FROM inbox ORDER BY seq")
          .toArray();
        return { out, rows, outbox: state.storage.sql.exec("SELECT count(*) AS n FROM outbox").one().n };
      } finally {
        holder.env = real;
      }
    });
    expect(uses).toEqual([]);
    expect(results.out.map((r) => r.status)).toEqual(["accepted", "accepted", "duplicate", "duplicate"]);
    // One row per accepted event, nothing else written yet: the alarm triages.
    expect(results.rows).toHaveLength(2);
    expect(results.rows.every((r) => r.triaged === 0)).toBe(true);
    expect(results.outbox).toBe(0);
    expect(results.rows[0]?.payload).not.toContain("Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z");
    // The alarm (with D1 back) triages both and answers the addressed one.
    await eventually(async () => (await stub.stats()).open === 0, 15_000, "triage and turn");
  });

  it("is not held behind a turn that is still running in the same object", async ({ expect }) => {
    const { chatKey, model, release, postFirst, postSecond } = gatedFirstTurn("LONG", [
      "第一条的回答",
      "第二条的回答",
    ]);
    const first = await postFirst("第一条，慢慢想");
    // The first turn is mid-way; the second message must be acknowledged without waiting.
    const second = await postSecond("第二条");
    expect(second.status).toBe(200);
    expect(second.ackMs).toBeLessThan(1000);
    expect((await env.CHAT_SESSION.getByName(chatKey).turnStatus(eventIdOf(second.body))).state).toBe(
      "pending",
    );
    release();
    expect(await repliesTo(chatKey, first, 15_000)).toEqual(sentOne("第一条的回答"));
    expect(await repliesTo(chatKey, second.body, 15_000)).toEqual(sentOne("第二条的回答"));
    expect(model.requests).toHaveLength(2);
  });

  it("leaves an event that arrives mid-drain to that drain, with a watchdog alarm instead of a wake-up", async ({
    expect,
  }) => {
    const { chatKey, model, release, postFirst, postSecond } = gatedFirstTurn("MID", ["一", "二"]);
    const stub = env.CHAT_SESSION.getByName(chatKey);
    const first = await postFirst("第一条");
    const second = await postSecond("第二条");
    expect(second.status).toBe(200);
    // Durable either way: an alarm is set, so a drain that died would still come back for it;
    // but not one due now, which would wake the object again once this drain ends.
    const alarm = await runInDurableObject(stub, (_o: ChatSession, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    expect(alarm ?? 0).toBeGreaterThanOrEqual(second.postedAt + DRAIN_WATCHDOG_MS - 1000);
    release();
    expect(await repliesTo(chatKey, second.body, 15_000)).toEqual(sentOne("二"));
    expect(await repliesTo(chatKey, first, 1_000)).toEqual(sentOne("一"));
    expect(model.requests).toHaveLength(2);
  });

  it("lets the event loop in between slices of a long triage, and still triages every row", async ({
    expect,
  }) => {
    const chat = `qq:group:TRI${crypto.randomUUID().replaceAll("-", "")}`;
    const stub = env.CHAT_SESSION.getByName(chat);
    const total = TRIAGE_SLICE * 3;
    const seen = await runInDurableObject(stub, async (instance: ChatSession, state) => {
      for (let i = 0; i < total; i++)
        await instance.enqueue(messageEvent({ chat, text: `闲聊 ${i}`, id: `C${i}`, addressedToBot: false }));
      const triaged = () =>
        Number(state.storage.sql.exec("SELECT count(*) AS n FROM inbox WHERE triaged = 1").one().n);
      // A macrotask that waits for the triage to begin, then notes how far it had got: an
      // enqueue RPC waits for the same thing. Run in one stretch, it would see every row done.
      let observed = -1;
      const watch = () => {
        const n = triaged();
        if (n > 0) observed = n;
        else setTimeout(watch, 0);
      };
      setTimeout(watch, 0);
      await instance.alarm();
      return { observed, after: triaged() };
    });
    expect(seen.observed).toBeGreaterThan(0);
    expect(seen.observed).toBeLessThan(total);
    expect(seen.observed % TRIAGE_SLICE).toBe(0);
    expect(seen.after).toBe(total);
  });
});
