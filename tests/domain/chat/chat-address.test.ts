import {
  accountKey,
  chatKeyOf,
  formatLaneKey,
  isOneToOneKey,
  isSharedKey,
  isTyped,
  parseAccountKey,
  parseChatKey,
  parseLaneKey,
} from "@src/domain/chat/chat-address";
import { describe, it } from "vitest";

describe("lane keys", () => {
  it.for([
    ["qq:group:C9F778FE6ADF9D1D1DBE395BF744A33A", "qq", "group", "C9F778FE6ADF9D1D1DBE395BF744A33A"],
    ["qq:private:E4F4AEA33253A2797FB897C50B81D7ED", "qq", "private", "E4F4AEA33253A2797FB897C50B81D7ED"],
    ["qq:channel:100010", "qq", "channel", "100010"],
    ["qq:dm:18700000000001", "qq", "dm", "18700000000001"],
    ["onebot:group:748394300", "onebot", "group", "748394300"],
    ["onebot:private:10001", "onebot", "private", "10001"],
  ] as const)("parses and formats the typed key %s", ([raw, channel, targetType, targetId], { expect }) => {
    const parsed = parseLaneKey(raw);
    expect(parsed).toEqual({ ok: true, value: { address: { channel, targetType, targetId }, lane: null } });
    if (!parsed.ok) return;
    expect(isTyped(parsed.value.address)).toBe(true);
    expect(formatLaneKey(parsed.value)).toBe(raw);
    expect(chatKeyOf(parsed.value.address)).toBe(raw);
  });

  it("parses a lane and resolves it to its chat", ({ expect }) => {
    const parsed = parseLaneKey("qq:private:U1:cron:abc");
    expect(parsed).toEqual({
      ok: true,
      value: {
        address: { channel: "qq", targetType: "private", targetId: "U1" },
        lane: { name: "cron", id: "abc" },
      },
    });
    if (!parsed.ok) return;
    expect(chatKeyOf(parsed.value.address)).toBe("qq:private:U1");
    expect(formatLaneKey(parsed.value)).toBe("qq:private:U1:cron:abc");
  });

  it("parses a legacy two-part key as untyped", ({ expect }) => {
    const parsed = parseLaneKey("milky:10001");
    expect(parsed.ok && parsed.value.address).toEqual({
      channel: "milky",
      targetType: "unknown",
      targetId: "10001",
    });
    expect(parsed.ok && isTyped(parsed.value.address)).toBe(false);
    expect(parsed.ok && formatLaneKey(parsed.value)).toBe("milky:10001");
  });

  it.for([
    ["", "key"],
    ["qq", "key"],
    ["qq:foo:1", "targetType"],
    ["qq:unknown:1", "targetType"],
    ["QQ:group:1", "channel"],
    ["qq:group:", "targetId"],
    ["qq:group:has space", "targetId"],
    ["qq:group:1:cron", "key"],
    ["qq:group:1:Cron:x", "lane"],
    ["qq:group:1:cron:", "laneId"],
    ["a:b:c:d:e:f", "key"],
    [`qq:group:${"x".repeat(600)}`, "key"],
  ] as const)("refuses the malformed key %j with a message naming %s", ([raw, field], { expect }) => {
    const parsed = parseLaneKey(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.field).toBe(field);
      expect(parsed.error.reason.length).toBeGreaterThan(3);
    }
  });

  it("parseChatKey refuses lanes and, unless allowed, legacy keys", ({ expect }) => {
    expect(parseChatKey("qq:private:U1:cron:abc").ok).toBe(false);
    expect(parseChatKey("milky:10001").ok).toBe(false);
    expect(parseChatKey("milky:10001", { allowLegacy: true }).ok).toBe(true);
  });
});

describe("account keys", () => {
  it("formats and parses channel:user:id", ({ expect }) => {
    const key = accountKey("qq", "E4F4AEA33253A2797FB897C50B81D7ED");
    expect(key).toEqual({ ok: true, value: "qq:user:E4F4AEA33253A2797FB897C50B81D7ED" });
    expect(parseAccountKey("onebot:user:10001")).toEqual({
      ok: true,
      value: { channel: "onebot", userId: "10001", key: "onebot:user:10001" },
    });
  });

  it.for(["qq:group:1", "qq:user:", "user:1", "qq:user:1:2", ""])("refuses %j", (raw, { expect }) => {
    expect(parseAccountKey(raw).ok).toBe(false);
  });
});

describe("one-to-one and shared keys", () => {
  it("knows a key as shared or one-to-one by its type alone, and a key of unknown type as neither", ({
    expect,
  }) => {
    const kinds = (key: string) => [isSharedKey(key), isOneToOneKey(key)];
    expect(kinds("qq:group:G1")).toEqual([true, false]);
    expect(kinds("qq:channel:C1:cron:x")).toEqual([true, false]);
    expect(kinds("qq:group:G1:private:U1")).toEqual([true, false]);
    expect(kinds("qq:private:U1")).toEqual([false, true]);
    expect(kinds("qq:dm:18700000000001")).toEqual([false, true]);
    for (const unknown of ["milky:10001", "qq:Group:G1", "qq:group:G1 ", "qq：group：G1", ""]) {
      expect(kinds(unknown), unknown).toEqual([false, false]);
    }
  });
});
