/**
 * A dispatch the chat object could not store is never acknowledged as received: the webhook
 * answers `{"op":12,"d":1}`, the official SDK's ask for a redelivery, keeps the failure for the
 * overview's recent errors, and the redelivered event is taken once (docs/qq-protocol.md#qq-dispatch-and-ack).
 */
import { env } from "cloudflare:workers";
import { D1OpsLog } from "@src/adapters/d1/d1-ops-log";
import { createApp } from "@src/workers/app";
import { describe, it } from "vitest";
import {
  c2cBody,
  eventIdOf,
  messageRowsOnceThere,
  postQq,
  signedQq,
  turnDone,
} from "../../support/qq-events";

const app = createApp();

/** A chat-object namespace whose every enqueue fails the way the runtime reports `failure`. */
const failingObjects = (failure: Error): Env =>
  ({
    ...env,
    CHAT_SESSION: { getByName: () => ({ enqueue: () => Promise.reject(failure) }) },
  }) as unknown as Env;

const overloaded = () =>
  Object.assign(new Error("Durable Object is overloaded. Too many requests queued."), { overloaded: true });
const connectionLost = () =>
  Object.assign(new Error("Network connection lost."), { retryable: true, remote: false });

describe("POST /webhook/qq when the chat object cannot take the event", () => {
  it.for([
    ["overloaded", overloaded],
    ["connection lost after the runtime's own retries", connectionLost],
    ["a plain error from the object", () => new Error("inbox write failed")],
  ] as const)("%s: asks for a redelivery and keeps the error", async ([, failure], { expect }) => {
    const user = `RD${crypto.randomUUID().replaceAll("-", "")}`;
    const body = c2cBody({ user, text: "/ping" });
    const res = await app.request(await signedQq(body), undefined, failingObjects(failure()));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ op: 12, d: 1 });
    const [kept] = await new D1OpsLog(env.DB).recent("error", 1);
    expect(kept?.source).toBe("qq webhook");
    expect(kept?.message).toContain(eventIdOf(body));
    expect(kept?.message).toContain(failure().message);
  });

  it("the redelivered event is taken and answered once, however often it comes again", async ({ expect }) => {
    const user = `RD${crypto.randomUUID().replaceAll("-", "")}`;
    const chat = `qq:private:${user}`;
    const body = c2cBody({ user, text: "/ping" });
    const refused = await app.request(await signedQq(body), undefined, failingObjects(overloaded()));
    expect(await refused.json()).toEqual({ op: 12, d: 1 });
    for (let delivery = 0; delivery < 3; delivery++) {
      const res = await postQq(body);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ op: 12, d: 0 });
    }
    const status = await turnDone(chat, eventIdOf(body));
    expect(status.replies).toEqual([{ text: "pong", state: "sent" }]);
    // Logged once too: the message and its one reply.
    const rows = await messageRowsOnceThere(chat, 2);
    expect(rows.map((r) => [r.direction, r.text])).toEqual([
      ["in", "/ping"],
      ["out", "pong"],
    ]);
  });
});
