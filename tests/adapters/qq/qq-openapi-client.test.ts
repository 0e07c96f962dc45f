import { QqAccessToken } from "@src/adapters/qq/qq-access-token";
import { QqOpenApiClient } from "@src/adapters/qq/qq-openapi-client";
import type { OutboundMessage } from "@src/domain/agent/outbound";
import type { ChatKey, TargetType } from "@src/domain/chat/chat-address";
import type { ReplyHandle } from "@src/domain/inbound/inbound-event";
import { type LogFields, type Logger, silentLogger } from "@src/domain/kernel/logger";
import { describe, it } from "vitest";
import { API_BASE, FakeQqApi, TOKEN_URL } from "./fake-qq-api";

const START = Date.parse("2025-01-01T00:00:00Z");

function setup(options: { apiBase?: string } = {}) {
  const api = new FakeQqApi();
  const clock = { now: START };
  const logs: { level: string; msg: string; fields?: LogFields }[] = [];
  const logger: Logger = {
    info: (msg, fields) => logs.push({ level: "info", msg, fields }),
    warn: (msg, fields) => logs.push({ level: "warn", msg, fields }),
    error: (msg, fields) => logs.push({ level: "error", msg, fields }),
  };
  const client = new QqOpenApiClient({
    appId: api.appId,
    secret: api.secret,
    apiBase: options.apiBase ?? API_BASE,
    tokenUrl: TOKEN_URL,
    fetch: api.fetch,
    clock: () => clock.now,
    logger,
  });
  return { api, clock, client, logs };
}

function message(
  targetType: TargetType,
  targetId: string,
  fields: { text?: string; reply?: ReplyHandle; seq?: number } = {},
): OutboundMessage {
  return {
    chat: { key: `qq:${targetType}:${targetId}` as ChatKey, channel: "qq", targetType, targetId },
    text: fields.text ?? "hello",
    reply: fields.reply ?? { kind: "msg_id", id: "ROBOT1.0_testmsg0001" },
    seq: fields.seq ?? 1,
  };
}

const GROUP = "C9F778FE6ADF9D1D1DBE395BF744A33A";
const USER = "E4F4AEA33253A2797FB897C50B81D7ED";

describe("QqOpenApiClient: access token", () => {
  it("fetches a token with the documented request and reuses it", async ({ expect }) => {
    const { api, client } = setup();
    expect((await client.send(message("group", GROUP))).ok).toBe(true);
    expect((await client.send(message("group", GROUP, { seq: 2 }))).ok).toBe(true);

    expect(api.tokenCalls).toHaveLength(1);
    expect(api.tokenCalls[0]).toMatchObject({
      method: "POST",
      contentType: "application/json",
      body: { appId: "102000000", clientSecret: "kV8sZ2pQ7xR4mN1b" },
    });
    expect(api.apiCalls.map((c) => c.authorization)).toEqual(["QQBot token-1", "QQBot token-1"]);
  });

  it("keeps the token while 90 s or more remain and refreshes after", async ({ expect }) => {
    const { api, client, clock } = setup();
    await client.send(message("group", GROUP));
    clock.now = START + (7200 - 90) * 1000;
    await client.send(message("group", GROUP));
    expect(api.tokenCalls).toHaveLength(1);

    clock.now += 1000;
    await client.send(message("group", GROUP));
    expect(api.tokenCalls).toHaveLength(2);
    expect(api.apiCalls.at(-1)?.authorization).toBe("QQBot token-2");
  });

  it("accepts expires_in as a number", async ({ expect }) => {
    const { api, client, clock } = setup();
    api.expiresIn = 600;
    await client.send(message("group", GROUP));
    clock.now = START + 509_000;
    await client.send(message("group", GROUP));
    expect(api.tokenCalls).toHaveLength(1);
    clock.now = START + 511_000;
    await client.send(message("group", GROUP));
    expect(api.tokenCalls).toHaveLength(2);
  });

  it("makes one token request for concurrent sends", async ({ expect }) => {
    const { api, client } = setup();
    let release = () => {};
    api.tokenGate = new Promise((resolve) => {
      release = resolve;
    });
    const sends = [1, 2, 3].map((seq) => client.send(message("group", GROUP, { seq })));
    await Promise.resolve();
    release();
    const results = await Promise.all(sends);

    expect(results.every((r) => r.ok)).toBe(true);
    expect(api.tokenCalls).toHaveLength(1);
    expect(api.apiCalls.map((c) => c.authorization)).toEqual(Array(3).fill("QQBot token-1"));
  });

  it("drops a token the API calls expired (11244), refetches once and retries", async ({ expect }) => {
    const { api, client } = setup();
    await client.send(message("group", GROUP));
    api.revoke("token-1");

    const result = await client.send(message("group", GROUP, { seq: 2 }));
    expect(result).toMatchObject({ ok: true, value: { duplicate: false } });
    expect(api.tokenCalls).toHaveLength(2);
    expect(api.apiCalls.map((c) => c.authorization)).toEqual([
      "QQBot token-1",
      "QQBot token-1",
      "QQBot token-2",
    ]);
    expect(api.apiCalls[1]?.body).toEqual(api.apiCalls[2]?.body);
  });

  it("retries only once when the fresh token is refused too", async ({ expect }) => {
    const { api, client } = setup();
    api.script({ status: 401, body: { code: 11244, message: "token not exist or expire" } });
    api.script({ status: 401, body: { code: 11244, message: "token not exist or expire" } });

    const result = await client.send(message("group", GROUP));
    expect(result).toMatchObject({ ok: false, error: { kind: "config", code: 11244, retryable: false } });
    expect(api.apiCalls).toHaveLength(2);
    expect(api.tokenCalls).toHaveLength(2);
  });

  it("reports refused credentials as config without calling the API", async ({ expect }) => {
    const api = new FakeQqApi("102000000", "other-secret");
    const client = new QqOpenApiClient({
      appId: "102000000",
      secret: "wrong-secret",
      apiBase: API_BASE,
      tokenUrl: TOKEN_URL,
      fetch: api.fetch,
    });
    const result = await client.send(message("group", GROUP));
    expect(result).toMatchObject({ ok: false, error: { kind: "config", code: 100016, retryable: false } });
    expect(api.apiCalls).toHaveLength(0);
  });

  it("does not cache a token failure", async ({ expect }) => {
    const { api, client } = setup();
    api.tokenFailure = { status: 503, body: { code: 503, message: "busy" } };
    expect(await client.send(message("group", GROUP))).toMatchObject({
      ok: false,
      error: { kind: "unavailable", retryable: true },
    });
    api.tokenFailure = null;
    expect((await client.send(message("group", GROUP))).ok).toBe(true);
    expect(api.tokenCalls).toHaveLength(2);
  });
});

describe("QqOpenApiClient: paths and bodies", () => {
  it("replies to a group with msg_type 0, msg_id and msg_seq", async ({ expect }) => {
    const { api, client } = setup();
    const result = await client.send(message("group", GROUP, { text: "你好", seq: 1 }));
    expect(api.apiCalls[0]).toMatchObject({
      method: "POST",
      url: `${API_BASE}/v2/groups/${GROUP}/messages`,
      contentType: "application/json",
      hasSignal: true,
      body: { msg_type: 0, content: "你好", msg_id: "ROBOT1.0_testmsg0001", msg_seq: 1 },
    });
    expect(result).toEqual({
      ok: true,
      value: { messageId: "SENT-1", ts: Date.parse("2025-01-01T00:00:05Z"), duplicate: false },
    });
  });

  it("sends to a C2C user with an event_id and passes msg_seq through", async ({ expect }) => {
    const { api, client } = setup();
    await client.send(message("private", USER, { reply: { kind: "event_id", id: "FRIEND_ADD:e1" }, seq: 3 }));
    expect(api.apiCalls[0]?.path).toBe(`/v2/users/${USER}/messages`);
    expect(api.apiCalls[0]?.body).toEqual({
      msg_type: 0,
      content: "hello",
      event_id: "FRIEND_ADD:e1",
      msg_seq: 3,
    });
  });

  it("replies in a guild channel without msg_type or msg_seq", async ({ expect }) => {
    const { api, client } = setup();
    const result = await client.send(
      message("channel", "100010", { reply: { kind: "msg_id", id: "08abc" }, seq: 2 }),
    );
    expect(api.apiCalls[0]?.path).toBe("/channels/100010/messages");
    expect(api.apiCalls[0]?.body).toEqual({ content: "hello", msg_id: "08abc" });
    expect(result).toMatchObject({ ok: true, value: { messageId: "GUILD-1" } });
  });

  it("replies in a guild DM to the DM session's guild", async ({ expect }) => {
    const { api, client } = setup();
    await client.send(message("dm", "18700000000001", { reply: { kind: "event_id", id: "E1" } }));
    expect(api.apiCalls[0]?.path).toBe("/dms/18700000000001/messages");
    expect(api.apiCalls[0]?.body).toEqual({ content: "hello", event_id: "E1" });
  });

  it("sends no handle for an active message", async ({ expect }) => {
    const { api, client } = setup();
    await client.send(message("group", GROUP, { reply: { kind: "none" } }));
    expect(api.apiCalls[0]?.body).toEqual({ msg_type: 0, content: "hello", msg_seq: 1 });
  });

  it("goes through an egress proxy base, trailing slash or not", async ({ expect }) => {
    const { api, client } = setup({ apiBase: `${API_BASE}/egress/qq/` });
    await client.send(message("group", GROUP));
    expect(api.apiCalls[0]?.url).toBe(`${API_BASE}/egress/qq/v2/groups/${GROUP}/messages`);
  });

  it("refuses chats it cannot address without calling anything", async ({ expect }) => {
    const { api, client } = setup();
    const unknown = {
      ...message("group", GROUP),
      chat: { ...message("group", GROUP).chat, targetType: "unknown" as const },
    };
    const onebot = {
      ...message("group", GROUP),
      chat: { ...message("group", GROUP).chat, channel: "onebot" },
    };
    expect(await client.send(unknown)).toMatchObject({
      ok: false,
      error: { kind: "rejected", retryable: false },
    });
    expect(await client.send(onebot)).toMatchObject({ ok: false, error: { kind: "rejected" } });
    expect(await client.send(message("group", GROUP, { text: "  " }))).toMatchObject({
      ok: false,
      error: { kind: "rejected" },
    });
    expect(api.tokenCalls).toHaveLength(0);
    expect(api.apiCalls).toHaveLength(0);
  });
});

describe("QqOpenApiClient: outcomes", () => {
  it("treats the dedupe error 40054005 as delivered by an earlier attempt", async ({ expect }) => {
    const { api, client } = setup();
    api.script({ status: 400, body: { code: 40054005, message: "消息被去重，请检查请求msgseq" } });
    expect(await client.send(message("group", GROUP))).toEqual({
      ok: true,
      value: { messageId: null, ts: START, duplicate: true },
    });
  });

  it("treats a guild message held for audit as delivered without an id", async ({ expect }) => {
    const { api, client } = setup();
    api.script({ status: 202, body: { code: 304023, message: "push message is waiting for audit" } });
    expect(await client.send(message("channel", "100010"))).toEqual({
      ok: true,
      value: { messageId: null, ts: START, duplicate: false },
    });
  });

  /** The body of an OpenAPI refusal. */
  const refusal = (code: number, message: string) => ({ code, message });

  it.for([
    ["reply window over (304027)", 400, refusal(304027, "reply timeout"), "expired", false],
    ["msg_id used up (40034024)", 400, refusal(40034024, "请求参数msg_id无效或越权"), "expired", false],
    ["passive window (40034005)", 400, refusal(40034005, "expired"), "expired", false],
    ["HTTP 429", 429, refusal(429, "too many"), "rate-limited", true],
    ["msg limit exceed (22009)", 400, refusal(22009, "msg limit exceed"), "rate-limited", true],
    ["HTTP 500", 500, refusal(500, "internal"), "unavailable", true],
    ["HTTP 502 without a JSON body", 502, null, "unavailable", true],
    ["active message refused (40034102)", 400, refusal(40034102, "主动消息失败, 无权限"), "rejected", false],
    ["an unknown refusal", 400, refusal(12345, "nope"), "rejected", false],
  ] as const)("maps %s to %s", async ([, status, body, kind, retryable], { expect }) => {
    const { api, client } = setup();
    api.script({ status, body });
    const result = await client.send(message("group", GROUP));
    expect(result).toMatchObject({ ok: false, error: { kind, retryable, status } });
  });

  it("explains the IP whitelist refusal (11298) and does not refetch the token", async ({ expect }) => {
    const { api, client } = setup();
    api.script({
      status: 401,
      body: { code: 11298, message: "接口访问源IP不在白名单", err_code: 40023002, trace_id: "t" },
    });
    const result = await client.send(message("group", GROUP));
    expect(result).toMatchObject({ ok: false, error: { kind: "config", code: 11298, retryable: false } });
    expect(!result.ok && result.error.message).toContain("QQ_API_BASE");
    expect(api.tokenCalls).toHaveLength(1);
    expect(api.apiCalls).toHaveLength(1);
  });

  it.for([
    ["a timeout", new DOMException("The operation was aborted due to timeout", "TimeoutError")],
    ["a network error", new TypeError("Network connection lost.")],
  ] as const)("reports %s as unavailable and retryable", async ([, error], { expect }) => {
    const { api, client } = setup();
    api.script({ throws: error });
    const result = await client.send(message("group", GROUP));
    expect(result).toMatchObject({ ok: false, error: { kind: "unavailable", retryable: true } });
  });

  it("never logs message text, the secret or the token", async ({ expect }) => {
    const { api, client, logs } = setup();
    await client.send(message("group", GROUP, { text: "very private words" }));
    api.revokeAll();
    await client.send(message("group", GROUP, { text: "very private words", seq: 2 }));
    api.script({ status: 400, body: { code: 40034024, message: "请求参数msg_id无效或越权" } });
    await client.send(message("group", GROUP, { text: "very private words", seq: 3 }));

    const logged = JSON.stringify(logs);
    expect(logs.length).toBeGreaterThan(0);
    expect(logged).not.toContain("very private words");
    expect(logged).not.toContain(api.secret);
    expect(logged).not.toContain("token-1");
    expect(logged).not.toContain("token-2");
  });
});

describe("QqAccessToken", () => {
  const tokenSource = (api: FakeQqApi) =>
    new QqAccessToken({
      appId: api.appId,
      secret: api.secret,
      tokenUrl: TOKEN_URL,
      fetch: api.fetch,
      clock: () => START,
      logger: silentLogger,
      timeoutMs: 5_000,
    });

  it("forgets only the token that was rejected, so a late 401 cannot drop a newer one", async ({
    expect,
  }) => {
    const api = new FakeQqApi();
    const tokens = tokenSource(api);
    expect(await tokens.get()).toEqual({ ok: true, value: "token-1" });
    tokens.invalidate("token-0");
    expect(await tokens.get()).toEqual({ ok: true, value: "token-1" });
    tokens.invalidate("token-1");
    expect(await tokens.get()).toEqual({ ok: true, value: "token-2" });
    expect(api.tokenCalls).toHaveLength(2);
  });

  it("treats a 200 without access_token as the platform being unwell", async ({ expect }) => {
    const api = new FakeQqApi();
    api.tokenFailure = { status: 200, body: {} };
    expect(await tokenSource(api).get()).toMatchObject({
      ok: false,
      error: { kind: "unavailable", retryable: true },
    });
  });
});
