import { OneBotClient } from "@src/adapters/onebot/onebot-client";
import type { OutboundMessage } from "@src/domain/agent/outbound";
import type { ChatKey } from "@src/domain/chat/chat-address";
import { ManualClock } from "@src/domain/kernel/clock";
import { describe, it } from "vitest";
import { unboundFetch } from "../../support/unbound-fetch";

const NOW = 1_700_000_000_000;
const API = "http://napcat.test:3000";
const TOKEN = "onebot-access-token";

type Sent = { url: string; headers: Headers; body: unknown };

/**
 * A fake OneBot HTTP API honouring the v11 contract as NapCat implements it: 401 without a
 * token, 403 for a wrong one, 404 for unknown actions, otherwise HTTP 200 with
 * `{status, retcode, data, message, wording}`. `reply` overrides the answer to send_msg.
 */
function fakeOneBot(reply?: (body: unknown) => Response | Promise<Response>) {
  const sent: Sent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const body: unknown = await request.json();
    sent.push({ url: request.url, headers: request.headers, body });
    const auth = request.headers.get("Authorization");
    if (auth === null) return new Response(null, { status: 401 });
    if (auth !== `Bearer ${TOKEN}`) return new Response(null, { status: 403 });
    if (new URL(request.url).pathname !== "/send_msg") return new Response(null, { status: 404 });
    if (reply) return reply(body);
    return Response.json({
      status: "ok",
      retcode: 0,
      data: { message_id: 987654 },
      message: "",
      wording: "",
    });
  };
  return { fetch, sent };
}

function client(
  fetch: typeof globalThis.fetch,
  overrides: Partial<{ apiBase: string; accessToken: string }> = {},
) {
  return new OneBotClient({
    apiBase: `${API}/`,
    accessToken: TOKEN,
    fetch,
    clock: new ManualClock(NOW),
    ...overrides,
  });
}

function outbound(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    chat: { key: "onebot:group:30003" as ChatKey, channel: "onebot", targetType: "group", targetId: "30003" },
    text: "你好",
    reply: { kind: "msg_id", id: "123456" },
    seq: 1,
    ...overrides,
  };
}

const failed = (retcode: number, message: string) =>
  Response.json({ status: "failed", retcode, data: null, message, wording: message });

describe("OneBotClient.send", () => {
  it("posts send_msg to a group, quoting the inbound message", async ({ expect }) => {
    const api = fakeOneBot();
    const result = await client(api.fetch).send(outbound());
    expect(result).toEqual({ ok: true, value: { messageId: "987654", ts: NOW, duplicate: false } });
    expect(api.sent).toHaveLength(1);
    expect(api.sent[0]?.url).toBe(`${API}/send_msg`);
    expect(api.sent[0]?.headers.get("Content-Type")).toBe("application/json");
    expect(api.sent[0]?.body).toEqual({
      message_type: "group",
      group_id: 30003,
      message: [
        { type: "reply", data: { id: "123456" } },
        { type: "text", data: { text: "你好" } },
      ],
    });
  });

  it("sends to a private chat without a quote when there is no msg_id", async ({ expect }) => {
    const api = fakeOneBot();
    const chat = {
      key: "onebot:private:20002" as ChatKey,
      channel: "onebot",
      targetType: "private" as const,
      targetId: "20002",
    };
    const result = await client(api.fetch).send(outbound({ chat, reply: { kind: "none" } }));
    expect(result.ok).toBe(true);
    expect(api.sent[0]?.body).toEqual({
      message_type: "private",
      user_id: 20002,
      message: [{ type: "text", data: { text: "你好" } }],
    });
  });

  it("treats an async acceptance as delivered without an id", async ({ expect }) => {
    const api = fakeOneBot(() => Response.json({ status: "async", retcode: 1, data: null }));
    expect(await client(api.fetch).send(outbound())).toEqual({
      ok: true,
      value: { messageId: null, ts: NOW, duplicate: false },
    });
  });

  it("omits Authorization when no access token is configured", async ({ expect }) => {
    const api = fakeOneBot();
    const result = await client(api.fetch, { accessToken: "" }).send(outbound());
    expect(api.sent[0]?.headers.has("Authorization")).toBe(false);
    expect(result).toMatchObject({ ok: false, error: { kind: "config", status: 401, retryable: false } });
  });

  it("reports a wrong access token as config", async ({ expect }) => {
    const api = fakeOneBot();
    const result = await client(api.fetch, { accessToken: "wrong" }).send(outbound());
    expect(result).toMatchObject({ ok: false, error: { kind: "config", status: 403, retryable: false } });
  });

  it("reports a base URL without send_msg as config", async ({ expect }) => {
    const api = fakeOneBot();
    const result = await client(api.fetch, { apiBase: `${API}/v2` }).send(outbound());
    expect(result).toMatchObject({ ok: false, error: { kind: "config", status: 404 } });
  });

  it("maps failed retcodes to rejected, with the implementation's wording", async ({ expect }) => {
    for (const retcode of [1400, 1404, 100, 200]) {
      const api = fakeOneBot(() => failed(retcode, "消息发送失败"));
      const result = await client(api.fetch).send(outbound());
      expect(result, String(retcode)).toEqual({
        ok: false,
        error: {
          kind: "rejected",
          message: `OneBot send_msg failed (retcode ${retcode}): 消息发送失败`,
          code: retcode,
          retryable: false,
        },
      });
    }
  });

  it("maps token retcodes to config", async ({ expect }) => {
    const api = fakeOneBot(() => failed(1403, "token verify failed"));
    expect(await client(api.fetch).send(outbound())).toMatchObject({
      ok: false,
      error: { kind: "config", code: 1403, retryable: false },
    });
  });

  it("maps 5xx to unavailable and retryable", async ({ expect }) => {
    const api = fakeOneBot(() => new Response("Bad Gateway", { status: 502 }));
    expect(await client(api.fetch).send(outbound())).toMatchObject({
      ok: false,
      error: { kind: "unavailable", status: 502, retryable: true },
    });
  });

  it("maps 429 to rate-limited and other 4xx to rejected", async ({ expect }) => {
    const limited = fakeOneBot(() => new Response(null, { status: 429 }));
    const bad = fakeOneBot(() => new Response(null, { status: 400 }));
    expect(await client(limited.fetch).send(outbound())).toMatchObject({
      ok: false,
      error: { kind: "rate-limited", retryable: true },
    });
    expect(await client(bad.fetch).send(outbound())).toMatchObject({
      ok: false,
      error: { kind: "rejected", status: 400, retryable: false },
    });
  });

  it("maps network failures to unavailable and retryable", async ({ expect }) => {
    const fetch: typeof globalThis.fetch = async () => {
      throw new TypeError("Network connection lost.");
    };
    expect(await client(fetch).send(outbound())).toEqual({
      ok: false,
      error: {
        kind: "unavailable",
        message: "OneBot API unreachable: Network connection lost.",
        retryable: true,
      },
    });
  });

  it("gives up after timeoutMs", async ({ expect }) => {
    const hanging: typeof globalThis.fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      });
    const slow = new OneBotClient({ apiBase: API, fetch: hanging, timeoutMs: 20 });
    expect(await slow.send(outbound())).toMatchObject({
      ok: false,
      error: {
        kind: "unavailable",
        message: "OneBot API unreachable: timed out after 20 ms",
        retryable: true,
      },
    });
  });

  it("does not retry a 2xx whose body is unreadable", async ({ expect }) => {
    for (const body of ["<html>proxy</html>", '{"ok":true}']) {
      const api = fakeOneBot(() => new Response(body, { status: 200 }));
      expect(await client(api.fetch).send(outbound()), body).toMatchObject({
        ok: false,
        error: { kind: "unavailable", status: 200, retryable: false },
      });
    }
  });

  it("refuses without calling the API when not configured or not a OneBot chat", async ({ expect }) => {
    const api = fakeOneBot();
    expect(await client(api.fetch, { apiBase: "" }).send(outbound())).toMatchObject({
      ok: false,
      error: { kind: "config", retryable: false },
    });
    // A QQ chat, and a OneBot chat of a kind OneBot cannot send to.
    for (const [channel, targetType, targetId] of [
      ["qq", "group", "ABC"],
      ["onebot", "channel", "1"],
    ] as const) {
      const chat = { key: `${channel}:${targetType}:${targetId}` as ChatKey, channel, targetType, targetId };
      expect(await client(api.fetch).send(outbound({ chat })), chat.key).toMatchObject({
        ok: false,
        error: { kind: "config" },
      });
    }
    expect(api.sent).toHaveLength(0);
  });

  it("calls fetch unbound, as workerd's own fetch requires", async ({ expect }) => {
    // workerd's fetch throws "Illegal invocation" when called as a method of another object.
    const api = fakeOneBot();
    const strict = unboundFetch(api.fetch);
    expect(await client(strict).send(outbound())).toMatchObject({ ok: true });
  });
});
