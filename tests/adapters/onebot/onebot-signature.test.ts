import { signOneBotBody, verifyOneBotSignature } from "@src/adapters/onebot/onebot-signature";
import { describe, it } from "vitest";
import { signedOneBotRequest } from "../../support/onebot-signing";

const SECRET = "onebot-test-secret";
const BODY = '{"time":1700000000,"self_id":10001,"post_type":"meta_event","meta_event_type":"heartbeat"}';
const bytes = (text: string) => new TextEncoder().encode(text);

describe("signOneBotBody", () => {
  it("produces sha1=<hex HMAC-SHA1> matching a known vector", async ({ expect }) => {
    // RFC 2202 test case 2: key "Jefe", data "what do ya want for nothing?".
    expect(await signOneBotBody("Jefe", "what do ya want for nothing?")).toBe(
      "sha1=effcdf6ae5eb2fa2d27416d5f184df9c259a7c79",
    );
  });

  it("signs strings and bytes alike", async ({ expect }) => {
    expect(await signOneBotBody(SECRET, bytes(BODY))).toBe(await signOneBotBody(SECRET, BODY));
  });
});

describe("verifyOneBotSignature", () => {
  it("accepts a body signed with the secret", async ({ expect }) => {
    const header = await signOneBotBody(SECRET, BODY);
    expect(await verifyOneBotSignature({ secret: SECRET, header, body: bytes(BODY) })).toEqual({
      ok: true,
      value: undefined,
    });
  });

  it("accepts uppercase hex and surrounding whitespace", async ({ expect }) => {
    const header = ` sha1=${(await signOneBotBody(SECRET, BODY)).slice(5).toUpperCase()} `;
    expect((await verifyOneBotSignature({ secret: SECRET, header, body: bytes(BODY) })).ok).toBe(true);
  });

  it("rejects a signature made with another secret", async ({ expect }) => {
    const header = await signOneBotBody("wrong-secret", BODY);
    const result = await verifyOneBotSignature({ secret: SECRET, header, body: bytes(BODY) });
    expect(result).toMatchObject({ ok: false, error: { kind: "mismatch" } });
  });

  it("rejects a tampered body", async ({ expect }) => {
    const header = await signOneBotBody(SECRET, BODY);
    const tampered = BODY.replace("10001", "10002");
    const result = await verifyOneBotSignature({ secret: SECRET, header, body: bytes(tampered) });
    expect(result).toMatchObject({ ok: false, error: { kind: "mismatch" } });
  });

  it("rejects a missing header", async ({ expect }) => {
    for (const header of [null, undefined, "", "  "]) {
      const result = await verifyOneBotSignature({ secret: SECRET, header, body: bytes(BODY) });
      expect(result).toMatchObject({ ok: false, error: { kind: "missing" } });
    }
  });

  it("rejects malformed headers without comparing", async ({ expect }) => {
    const good = (await signOneBotBody(SECRET, BODY)).slice(5);
    for (const header of [
      good, // no sha1= prefix
      `sha256=${good}`,
      `sha1=${good.slice(0, 39)}`, // too short
      `sha1=${good}00`, // too long
      `sha1=${good.slice(0, 39)}g`, // not hex
      "sha1=",
    ]) {
      const result = await verifyOneBotSignature({ secret: SECRET, header, body: bytes(BODY) });
      expect(result, header).toMatchObject({ ok: false, error: { kind: "malformed" } });
    }
  });

  it("refuses to verify without a secret", async ({ expect }) => {
    const header = await signOneBotBody(SECRET, BODY);
    const result = await verifyOneBotSignature({ secret: "", header, body: bytes(BODY) });
    expect(result).toMatchObject({ ok: false, error: { kind: "no-secret" } });
  });
});

describe("signedOneBotRequest", () => {
  it("builds a request whose signature verifies over its body", async ({ expect }) => {
    const request = await signedOneBotRequest("https://bot.test/webhook/onebot", BODY, SECRET);
    expect(request.method).toBe("POST");
    expect(request.headers.get("Content-Type")).toBe("application/json");
    expect(request.headers.get("X-Self-ID")).toBe("10001");
    const body = new Uint8Array(await request.arrayBuffer());
    const header = request.headers.get("X-Signature");
    expect((await verifyOneBotSignature({ secret: SECRET, header, body })).ok).toBe(true);
  });

  it("defaults to the test Worker's ONEBOT_SECRET", async ({ expect }) => {
    const request = await signedOneBotRequest("https://bot.test/webhook/onebot", "not json");
    expect(request.headers.get("X-Signature")).toBe(await signOneBotBody("onebot-test-secret", "not json"));
    expect(request.headers.has("X-Self-ID")).toBe(false);
  });
});
