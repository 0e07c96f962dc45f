// Every signature vector (docs/qq-protocol.md#qq-test-vectors), plus the rejections of
// docs/qq-protocol.md#verifying-a-request.

import {
  fromHex,
  qqPublicKey,
  qqSeed,
  signQqMessage,
  toHex,
  verifyQqSignature,
} from "@src/adapters/qq/qq-signature";
import { describe, it } from "vitest";
import { QQ_VECTORS, sha256Hex, utf8 } from "./qq-vectors";

const { D1, D2, D3, V1, V2, V3, V4 } = QQ_VECTORS;

/** Verifies a dispatch vector's signature over its body, with the fields of `over` in place of its own. */
const verifyDispatch = (
  v: { secret: string; signature: string; timestamp: string; body: string },
  over: Partial<Parameters<typeof verifyQqSignature>[0]> = {},
) =>
  verifyQqSignature({
    secret: v.secret,
    signatureHex: v.signature,
    timestamp: v.timestamp,
    body: utf8(v.body),
    ...over,
  });

/** Verifies an op 13 vector's signature over event_ts + plain_token. */
const verifyOp13 = (v: { secret: string; signature: string; eventTs: string; plainToken: string }) =>
  verifyQqSignature({
    secret: v.secret,
    signatureHex: v.signature,
    timestamp: v.eventTs,
    body: utf8(v.plainToken),
  });

describe("qqSeed", () => {
  it.for([
    ["DG5g3B4j9X2KOErG", "DG5g3B4j9X2KOErGDG5g3B4j9X2KOErG"],
    ["naOC0ocQE3shWLAfffVLB1rhYPG7", "naOC0ocQE3shWLAfffVLB1rhYPG7naOC"],
    ["abcde", "abcdeabcdeabcdeabcdeabcdeabcdeab"],
    ["123456abcdef", "123456abcdef123456abcdef123456ab"],
    ["0123456789abcdefABCDEFghijklmnop", "0123456789abcdefABCDEFghijklmnop"],
    ["0123456789abcdefABCDEFghijklmnopQRSTUV", "0123456789abcdefABCDEFghijklmnop"],
  ] as const)("repeats %s to 32 bytes", ([secret, seed], { expect }) => {
    expect(new TextDecoder().decode(qqSeed(secret))).toBe(seed);
  });

  it("repeats bytes, not characters, for a non-ASCII secret", async ({ expect }) => {
    const seed = qqSeed("密钥"); // 6 UTF-8 bytes
    expect(toHex(seed)).toBe(toHex(utf8("密钥密钥密钥密钥密钥密钥")).slice(0, 64));
  });

  it("refuses an empty secret as a configuration bug", async ({ expect }) => {
    expect(() => qqSeed("")).toThrow(/empty/);
  });
});

describe("public key derivation", () => {
  it.for([D1, D2, D3, V1, V3, V4])("derives the published public key for $secret", async (v, { expect }) => {
    expect(toHex(await qqPublicKey(v.secret))).toBe(v.publicKey);
  });
});

describe("verifyQqSignature", () => {
  it("D1: verifies the docs' op 13 signature over event_ts + plain_token", async ({ expect }) => {
    expect(await verifyOp13(D1)).toBe(true);
  });

  it.for([
    ["D2", "the exact pretty-printed 53-byte body", D2, 53],
    ["D3", "the Go SDK vector's UTF-8 body", D3, 222],
  ] as const)("%s: verifies over %s", async ([, , v, length], { expect }) => {
    const body = utf8(v.body);
    expect(body.length).toBe(length);
    expect(await sha256Hex(body)).toBe(v.bodySha256);
    expect(await verifyDispatch(v, { body })).toBe(true);
  });

  it("D2: fails over the docs' printed one-line body (whitespace is signed)", async ({ expect }) => {
    const body = utf8('{ "op": 0,"d": {}, "t": "GATEWAY_EVENT_NAME"}');
    expect(await verifyDispatch(D2, { body })).toBe(false);
  });

  it("V1 and V4: verify op 13 signatures", async ({ expect }) => {
    for (const v of [V1, V4]) {
      expect(await verifyOp13(v)).toBe(true);
    }
  });

  it("V2 and V3: verify signed dispatches", async ({ expect }) => {
    for (const v of [V2, V3]) {
      const body = utf8(v.body);
      expect(body.length).toBe(v.bodyLength);
      expect(await sha256Hex(body)).toBe(v.bodySha256);
      expect(await verifyDispatch(v, { body })).toBe(true);
    }
  });

  it("accepts an upper-case hex signature", async ({ expect }) => {
    expect(await verifyDispatch(V2, { signatureHex: V2.signature.toUpperCase() })).toBe(true);
  });

  it.for([
    ["a changed body", { body: utf8(V2.body.replace("/help", "/helq")) }],
    ["a changed timestamp", { timestamp: "1735689602" }],
    ["the right signature under another secret", { secret: D1.secret }],
  ] as const)("V2: rejects %s", async ([, over], { expect }) => {
    expect(await verifyDispatch(V2, over)).toBe(false);
  });

  it.for([
    ["non-hex characters", `${V2.signature.slice(0, 126)}zz`],
    ["an odd number of digits", V2.signature.slice(0, 127)],
    ["63 bytes", V2.signature.slice(0, 126)],
    ["65 bytes", `${V2.signature}00`],
    ["an empty string", ""],
    ["whitespace around it", ` ${V2.signature}`],
  ] as const)("rejects a signature with %s", async ([, signatureHex], { expect }) => {
    expect(await verifyDispatch(V2, { signatureHex })).toBe(false);
  });

  it("rejects a signature whose S has any of its top three bits set", async ({ expect }) => {
    for (const bit of [0x20, 0x40, 0x80]) {
      const sig = fromHex(V2.signature) ?? new Uint8Array();
      sig[63] = (sig[63] ?? 0) | bit;
      expect(await verifyDispatch(V2, { signatureHex: toHex(sig) })).toBe(false);
    }
  });

  it("rejects an empty timestamp even when the body alone was signed", async ({ expect }) => {
    const body = utf8(`${V2.timestamp}${V2.body}`);
    const signatureHex = await signQqMessage(V2.secret, body);
    expect(await verifyQqSignature({ secret: V2.secret, signatureHex, timestamp: "", body })).toBe(false);
  });
});

describe("signQqMessage", () => {
  it("reproduces the op 13 signatures of D1, V1 and V4", async ({ expect }) => {
    for (const v of [D1, V1, V4]) {
      expect(await signQqMessage(v.secret, `${v.eventTs}${v.plainToken}`)).toBe(v.signature);
    }
  });

  it("reproduces the dispatch signatures of D2, D3, V2 and V3 from bytes", async ({ expect }) => {
    for (const v of [D2, D3, V2, V3]) {
      const message = new Uint8Array([...utf8(v.timestamp), ...utf8(v.body)]);
      expect(await signQqMessage(v.secret, message)).toBe(v.signature);
    }
  });

  it("returns 128 lowercase hex digits that verify", async ({ expect }) => {
    const signatureHex = await signQqMessage("some-secret", "1700000000hello");
    expect(signatureHex).toMatch(/^[0-9a-f]{128}$/);
    expect(
      await verifyQqSignature({
        secret: "some-secret",
        signatureHex,
        timestamp: "1700000000",
        body: utf8("hello"),
      }),
    ).toBe(true);
  });
});
