import {
  answerValidation,
  checkQqRequest,
  QQ_DEFAULT_MAX_SKEW_SECONDS,
} from "@src/adapters/qq/qq-webhook-request";
import { describe, it } from "vitest";
import { signedQqRequest } from "../../support/qq-signing";
import { QQ_VECTORS, utf8 } from "./qq-vectors";

const { D1, V1, V2, V4 } = QQ_VECTORS;
const APP_ID = "102000000";
const V2_NOW_MS = Number(V2.timestamp) * 1000;

function v2Headers(overrides: Record<string, string | null> = {}): Headers {
  const headers = new Headers({
    "X-Bot-Appid": APP_ID,
    "X-Signature-Ed25519": V2.signature,
    "X-Signature-Timestamp": V2.timestamp,
    "User-Agent": "QQBot-Callback",
  });
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return headers;
}

function check(headers: Headers, body = utf8(V2.body), nowMs = V2_NOW_MS) {
  return checkQqRequest({ appId: APP_ID, secret: V2.secret, headers, body, nowMs, maxSkewSeconds: 600 });
}

/** Requests the check refuses, each changed from the genuine V2 one: the status and reason it answers. */
const REFUSALS: {
  what: string;
  headers?: Record<string, string | null>;
  body?: string;
  nowMs?: number;
  status: number;
  reason: string;
}[] = [
  {
    what: "another bot's appid",
    headers: { "X-Bot-Appid": "102000001" },
    status: 403,
    reason: "appid mismatch",
  },
  { what: "a missing appid", headers: { "X-Bot-Appid": null }, status: 403, reason: "appid mismatch" },
  {
    what: "a request without X-Signature-Ed25519",
    headers: { "X-Signature-Ed25519": null },
    status: 401,
    reason: "missing signature",
  },
  {
    what: "a request without X-Signature-Timestamp",
    headers: { "X-Signature-Timestamp": null },
    status: 401,
    reason: "missing signature",
  },
  { what: "a changed body", body: V2.body.replace("/help", "/helq"), status: 401, reason: "bad signature" },
  {
    what: "a changed timestamp",
    headers: { "X-Signature-Timestamp": "1735689602" },
    status: 401,
    reason: "bad signature",
  },
  {
    what: "a malformed signature",
    headers: { "X-Signature-Ed25519": "not-hex" },
    status: 401,
    reason: "bad signature",
  },
  {
    what: "a timestamp that is not digits",
    headers: { "X-Signature-Timestamp": "1735689601.5" },
    status: 401,
    reason: "malformed timestamp",
  },
  {
    what: "a genuine request older than the window",
    nowMs: V2_NOW_MS + 601_000,
    status: 401,
    reason: "stale timestamp",
  },
  {
    what: "a genuine request from too far in the future",
    nowMs: V2_NOW_MS - 601_000,
    status: 401,
    reason: "stale timestamp",
  },
];

describe("checkQqRequest", () => {
  it("accepts the V2 request and returns its timestamp", async ({ expect }) => {
    expect(await check(v2Headers())).toEqual({ ok: true, value: { timestamp: "1735689601" } });
  });

  it("reads header names case-insensitively, as the platform sometimes sends them lower-cased", async ({
    expect,
  }) => {
    const headers = new Headers([
      ["x-bot-appid", APP_ID],
      ["x-signature-ed25519", V2.signature],
      ["x-signature-timestamp", V2.timestamp],
    ]);
    expect((await check(headers)).ok).toBe(true);
  });

  for (const r of REFUSALS)
    it(`refuses ${r.what} with ${r.status}`, async ({ expect }) => {
      expect(await check(v2Headers(r.headers), utf8(r.body ?? V2.body), r.nowMs)).toEqual({
        ok: false,
        error: { status: r.status, reason: r.reason },
      });
    });

  it("accepts a request at the edge of the window", async ({ expect }) => {
    expect((await check(v2Headers(), utf8(V2.body), V2_NOW_MS + 600_000)).ok).toBe(true);
    expect((await check(v2Headers(), utf8(V2.body), V2_NOW_MS - 600_000)).ok).toBe(true);
  });

  it("checks a fresh request built by the test signing helper", async ({ expect }) => {
    const body = '{"op":0,"id":"X","t":"C2C_MESSAGE_CREATE","d":{}}';
    const request = await signedQqRequest("https://bot.test/webhook/qq", body, {
      secret: "s3cret",
      appId: APP_ID,
    });
    const bytes = new Uint8Array(await request.arrayBuffer());
    const result = await checkQqRequest({
      appId: APP_ID,
      secret: "s3cret",
      headers: request.headers,
      body: bytes,
      nowMs: Date.now(),
      maxSkewSeconds: QQ_DEFAULT_MAX_SKEW_SECONDS,
    });
    expect(result.ok).toBe(true);
    expect(request.headers.get("user-agent")).toBe("QQBot-Callback");
  });
});

describe("answerValidation", () => {
  it.for([
    ["D1", D1],
    ["V1", V1],
    ["V4", V4],
  ] as const)("answers the %s challenge with the published signature", async ([, v], { expect }) => {
    expect(await answerValidation({ plain_token: v.plainToken, event_ts: v.eventTs }, v.secret)).toEqual({
      ok: true,
      value: { plain_token: v.plainToken, signature: v.signature },
    });
  });

  it("produces the V1 response body byte for byte", async ({ expect }) => {
    const answer = await answerValidation(JSON.parse(V1.body).d, V1.secret);
    expect(answer.ok && JSON.stringify(answer.value)).toBe(
      `{"plain_token":"X7cT2qLm9PzR4vNw8KdA","signature":"${V1.signature}"}`,
    );
  });

  it("takes a numeric event_ts as its decimal text", async ({ expect }) => {
    const answer = await answerValidation({ plain_token: D1.plainToken, event_ts: 1725442341 }, D1.secret);
    expect(answer).toEqual({ ok: true, value: { plain_token: D1.plainToken, signature: D1.signature } });
  });

  it("refuses to sign a forged dispatch smuggled in plain_token", async ({ expect }) => {
    const forged = '{"op":0,"id":"X","t":"GROUP_AT_MESSAGE_CREATE","d":{}}';
    const answer = await answerValidation({ plain_token: forged, event_ts: "1735689601" }, V2.secret);
    expect(answer.ok).toBe(false);
  });

  it.for([
    ["an empty plain_token", { plain_token: "", event_ts: "1735689600" }],
    ["a 65-character plain_token", { plain_token: "a".repeat(65), event_ts: "1735689600" }],
    ["a plain_token with a space", { plain_token: "abc def", event_ts: "1735689600" }],
    ["a non-digit event_ts", { plain_token: "abc", event_ts: "1735689600x" }],
    ["an empty event_ts", { plain_token: "abc", event_ts: "" }],
    ["a fractional numeric event_ts", { plain_token: "abc", event_ts: 1.5 }],
    ["a negative numeric event_ts", { plain_token: "abc", event_ts: -1 }],
    ["a missing plain_token", { event_ts: "1735689600" }],
    ["a non-object", "challenge"],
  ] as const)("refuses %s", async ([, d], { expect }) => {
    expect((await answerValidation(d, V1.secret)).ok).toBe(false);
  });
});
