import { env, exports } from "cloudflare:workers";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import { describe, it, vi } from "vitest";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import {
  c2cBody,
  eventIdOf,
  groupAtBody,
  messageRows,
  messageRowsOnceThere,
  postQq,
  TEST_APP_ID,
  TEST_SECRET,
  turnDone,
} from "../../support/qq-events";
import { signedQqRequest } from "../../support/qq-signing";
import { eventually } from "../../support/wait";
import { webhookTraces } from "../../support/webhook-traces";

const ACK = { op: 12, d: 0 };

async function stateSnapshot() {
  const chats = await env.DB.prepare("SELECT count(*) AS n FROM chats").first<{ n: number }>();
  return { ...(await webhookTraces()), chats: chats?.n };
}

describe("POST /webhook/qq", () => {
  it("acknowledges a signed group @-message, replies once and logs both directions", async ({ expect }) => {
    const group = `G${crypto.randomUUID().replaceAll("-", "")}`;
    const body = groupAtBody({ group, member: "M1", text: "/ping" });
    const res = await postQq(body);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(ACK);
    // Local mode: the ACK's trace for the webhook bench, its stamps in the order of the steps.
    const trace = /ack;desc="entry=(\d+) enq0=(\d+) enq1=(\d+)"/.exec(res.headers.get("server-timing") ?? "");
    const [entry, enq0, enq1] = (trace?.slice(1) ?? []).map(Number);
    expect(entry).toBeGreaterThan(0);
    expect([entry, enq0, enq1]).toEqual([entry, enq0, enq1].sort((a = 0, b = 0) => a - b));
    const status = await turnDone(`qq:group:${group}`, eventIdOf(body));
    expect(status.replies).toEqual([{ text: "pong", state: "sent" }]);
    const rows = await messageRowsOnceThere(`qq:group:${group}`, 2);
    expect(rows.map((r) => [r.direction, r.text])).toEqual([
      ["in", "/ping"],
      ["out", "pong"],
    ]);
    const chat = await env.DB.prepare("SELECT target_type, followed FROM chats WHERE chat_key = ?")
      .bind(`qq:group:${group}`)
      .first();
    expect(chat).toEqual({ target_type: "group", followed: 1 });
  });

  it("verifies the protocol's V2 vector end to end at its own time", async ({ expect }) => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1735689601_000);
    try {
      const v2 =
        '{"op":0,"id":"GROUP_AT_MESSAGE_CREATE:testevent0001","d":{"id":"ROBOT1.0_testmsg0001","content":" 你好 /help","timestamp":"2025-01-01T08:00:01+08:00","author":{"id":"E4F4AEA33253A2797FB897C50B81D7ED","member_openid":"E4F4AEA33253A2797FB897C50B81D7ED","union_openid":"E4F4AEA33253A2797FB897C50B81D7ED"},"group_id":"C9F778FE6ADF9D1D1DBE395BF744A33A","group_openid":"C9F778FE6ADF9D1D1DBE395BF744A33A","message_scene":{"source":"default"},"message_type":0},"t":"GROUP_AT_MESSAGE_CREATE"}';
      const request = new Request("https://bot.test/webhook/qq", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-bot-appid": TEST_APP_ID,
          "x-signature-timestamp": "1735689601",
          "x-signature-ed25519":
            "6fc3bcd768cb174b1050e541db7e3232cc7357a35d3fc4c7c2b865bf9d65149c18053164053f590a9f8d4e5d837c559ef97f52a5b812631cbec54016a18a060f",
        },
        body: v2,
      });
      const res = await exports.default.fetch(request);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(ACK);
      const tampered = await exports.default.fetch(
        new Request(request.url, {
          method: "POST",
          headers: request.headers,
          body: v2.replace("/help", "/helq"),
        }),
      );
      expect(tampered.status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
    const status = await turnDone(
      "qq:group:C9F778FE6ADF9D1D1DBE395BF744A33A",
      "GROUP_AT_MESSAGE_CREATE:testevent0001",
    );
    expect(status.state).toBe("done");
  });

  it("answers the op 13 validation with the signed plain_token (vector V1)", async ({ expect }) => {
    const body = '{"op":13,"d":{"plain_token":"X7cT2qLm9PzR4vNw8KdA","event_ts":"1735689600"}}';
    const res = await postQq(body);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(
      '{"plain_token":"X7cT2qLm9PzR4vNw8KdA","signature":"1ba32387b1373ea6df233280a5d10e81b3c86de980d7d7a23693805203b93a15d450b4f2474d0382a8711e2325591688d630fa319818f5c5db55325648563605"}',
    );
  });

  it("refuses an unsigned op 13 and a forged plain_token", async ({ expect }) => {
    const body = '{"op":13,"d":{"plain_token":"X7cT2qLm9PzR4vNw8KdA","event_ts":"1735689600"}}';
    const unsigned = await exports.default.fetch(
      new Request("https://bot.test/webhook/qq", {
        method: "POST",
        headers: { "x-bot-appid": TEST_APP_ID },
        body,
      }),
    );
    expect(unsigned.status).toBe(401);
    const forged = await postQq('{"op":13,"d":{"plain_token":"{\\"op\\":0}","event_ts":"1735689600"}}');
    expect(forged.status).toBe(400);
  });

  it.for([
    ["a bad signature", { secret: "not-the-secret-at-all-0123456789" }, 401],
    ["a stale timestamp", { timestamp: String(Math.floor(Date.now() / 1000) - 3600) }, 401],
    ["another app id", { appId: "999" }, 403],
  ] as const)(
    "rejects %s before any state changes, with an empty body",
    async ([, options, status], { expect }) => {
      const before = await stateSnapshot();
      const res = await postQq(
        groupAtBody({ group: `G${crypto.randomUUID()}`.replaceAll("-", ""), member: "M1", text: "hi" }),
        options,
      );
      expect(res.status).toBe(status);
      // The reason (here: which check failed) is only in the log.
      expect(await res.text()).toBe("");
      expect(await stateSnapshot()).toEqual(before);
    },
  );

  it("rejects a request without signature headers", async ({ expect }) => {
    const before = await stateSnapshot();
    const res = await exports.default.fetch(
      new Request("https://bot.test/webhook/qq", {
        method: "POST",
        headers: { "x-bot-appid": TEST_APP_ID, "content-type": "application/json" },
        body: groupAtBody({ group: "GUNSIGNED", member: "M1", text: "hi" }),
      }),
    );
    expect(res.status).toBe(401);
    expect(await stateSnapshot()).toEqual(before);
  });

  it("processes a redelivered event once", async ({ expect }) => {
    const group = `G${crypto.randomUUID().replaceAll("-", "")}`;
    const body = groupAtBody({ group, member: "M1", text: "/ping" });
    expect((await postQq(body)).status).toBe(200);
    expect((await postQq(body)).status).toBe(200);
    // Same message id under a new envelope id (the platform's "same msg_id pushed twice").
    const again = body.replace(eventIdOf(body), `GROUP_AT_MESSAGE_CREATE:${crypto.randomUUID()}`);
    expect((await postQq(again)).status).toBe(200);
    const status = await turnDone(`qq:group:${group}`, eventIdOf(body));
    expect(status.replies).toHaveLength(1);
    await eventually(async () => (await messageRows(`qq:group:${group}`)).length === 2);
    expect((await messageRows(`qq:group:${group}`)).map((r) => r.direction)).toEqual(["in", "out"]);
    expect(await env.CHAT_SESSION.getByName(`qq:group:${group}`).turnStatus(eventIdOf(again))).toEqual({
      state: "unknown",
      replies: [],
    });
  });

  it("processes two events of one chat in order while the model is slow", async ({ expect }) => {
    const real = chatObjectServices.create.bind(chatObjectServices);
    const model = new ScriptedChatModel([
      async () => {
        await new Promise((r) => setTimeout(r, 400));
        return { text: "first answer" };
      },
      { text: "second answer" },
    ]);
    vi.spyOn(chatObjectServices, "create").mockImplementation((e) => ({ ...real(e), model }));
    const user = `U${crypto.randomUUID().replaceAll("-", "")}`;
    const first = c2cBody({ user, text: "question one" });
    const second = c2cBody({ user, text: "question two" });
    expect((await postQq(first)).status).toBe(200);
    await eventually(async () => model.requests.length === 1);
    expect((await postQq(second)).status).toBe(200);
    await turnDone(`qq:private:${user}`, eventIdOf(second));
    expect(model.requests.map((r) => r.messages.at(-1)?.content)).toEqual(["question one", "question two"]);
    // The second turn saw the first turn's exchange as recent context.
    expect(model.requests[1]?.messages.map((m) => m.content)).toEqual(
      expect.arrayContaining(["question one", "first answer"]),
    );
    const rows = await messageRowsOnceThere(`qq:private:${user}`, 4);
    // The log is in arrival order: question two arrived while the first answer was pending.
    expect(rows.filter((r) => r.direction === "in").map((r) => r.text)).toEqual([
      "question one",
      "question two",
    ]);
    expect(rows.filter((r) => r.direction === "out").map((r) => r.text)).toEqual([
      "first answer",
      "second answer",
    ]);
  });

  it.for([
    ["malformed JSON", "{not json", 400],
    ["a body that is not an envelope", '{"op":"zero"}', 400],
    [
      "an invalid group message",
      '{"op":0,"id":"GROUP_AT_MESSAGE_CREATE:x","t":"GROUP_AT_MESSAGE_CREATE","d":{"id":"m"}}',
      400,
    ],
  ] as const)(
    "answers %s with its status, an empty body and no state change",
    async ([, body, status], { expect }) => {
      const before = await stateSnapshot();
      const res = await postQq(body);
      expect(res.status).toBe(status);
      expect(await res.text()).toBe("");
      expect(await stateSnapshot()).toEqual(before);
    },
  );

  it("acknowledges an unknown event type without storing anything", async ({ expect }) => {
    const before = await stateSnapshot();
    const res = await postQq('{"op":0,"id":"SOMETHING_NEW:1","t":"SOMETHING_NEW","d":{"x":1}}');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(ACK);
    expect(await stateSnapshot()).toEqual(before);
  });

  it("refuses an oversized body with 413 and no state change", async ({ expect }) => {
    const before = await stateSnapshot();
    const big = groupAtBody({ group: "GBIG", member: "M1", text: "大".repeat(300_000) });
    const res = await postQq(big);
    expect(res.status).toBe(413);
    expect(await res.text()).toBe("");
    expect(await stateSnapshot()).toEqual(before);
  });

  it("refuses an oversized streamed body that declares no length", async ({ expect }) => {
    const before = await stateSnapshot();
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ >= 8) return controller.close();
        controller.enqueue(chunk);
      },
    });
    const res = await exports.default.fetch(
      new Request("https://bot.test/webhook/qq", {
        method: "POST",
        headers: { "x-bot-appid": TEST_APP_ID },
        body: stream,
      }),
    );
    expect(res.status).toBe(413);
    expect(await stateSnapshot()).toEqual(before);
  });

  it("signs requests the way the test helper does (sanity of the helper)", async ({ expect }) => {
    const req = await signedQqRequest("https://bot.test/webhook/qq", "{}", {
      secret: TEST_SECRET,
      appId: TEST_APP_ID,
    });
    expect(req.headers.get("x-signature-ed25519")).toMatch(/^[0-9a-f]{128}$/);
  });
});
