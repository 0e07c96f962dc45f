import {
  dreamSensitivity,
  explicitSensitivity,
  isBarePrivacyMarker,
  looksLikeCredential,
  outranks,
  resolveSensitivity,
  stripPrivacyPhrases,
} from "@src/domain/memory/sensitivity";
import { describe, it } from "vitest";

describe("explicit requests", () => {
  it.for([
    ["我怕狗，别告诉别人", "secret_like"],
    ["这是秘密", "secret_like"],
    ["don't tell anyone, I'm scared of dogs", "secret_like"],
    ["这是私下的", "private"],
    ["这个别在别处提", "private"],
    ["please don't mention this elsewhere", "private"],
    ["我喜欢猫", null],
  ] as const)("%s → %s", ([text, expected], { expect }) => {
    expect(explicitSensitivity(text)).toBe(expected);
  });

  it("strips the request from the remembered text", ({ expect }) => {
    expect(stripPrivacyPhrases("我怕狗，别告诉别人")).toBe("我怕狗");
    expect(stripPrivacyPhrases("I'm scared of dogs, don't tell anyone")).toBe("I'm scared of dogs");
    expect(stripPrivacyPhrases("我喜欢猫，这是私下的")).toBe("我喜欢猫");
  });

  it("recognises a message that is only a privacy request", ({ expect }) => {
    expect(isBarePrivacyMarker("这个别在别处提哦")).toBe(true);
    expect(isBarePrivacyMarker("我怕狗，别告诉别人")).toBe(false);
    expect(isBarePrivacyMarker("你好")).toBe(false);
  });
});

describe("credentials", () => {
  it.for([
    "my key is sk-abcdefghijklmnopqrstuvwx",
    "ghp_0123456789abcdefghijABCDEFGHIJ",
    "我的密码是 hunter2hunter2",
    "cookie: SESSIONID=abcdef0123456789",
    "token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abc",
  ])("refuses %s", (text, { expect }) => {
    expect(looksLikeCredential(text)).toBe(true);
  });

  it("lets ordinary statements through", ({ expect }) => {
    expect(looksLikeCredential("我喜欢猫，周五去开会")).toBe(false);
    expect(looksLikeCredential("I like the token economy game")).toBe(false);
  });
});

describe("automatic tagging", () => {
  it("tags personal matters private only in a private chat", ({ expect }) => {
    expect(dreamSensitivity("我和男朋友分手了", { privateChat: true })).toBe("private");
    expect(dreamSensitivity("我和男朋友分手了", { privateChat: false })).toBe("public");
  });

  it("tags secrets secret_like anywhere", ({ expect }) => {
    expect(dreamSensitivity("我的身份证快过期了", { privateChat: false })).toBe("secret_like");
    expect(dreamSensitivity("电话 13812345678", { privateChat: false })).toBe("secret_like");
  });

  it("lets explicit outrank the automatic tags", ({ expect }) => {
    expect(resolveSensitivity({ explicit: "private", automatic: ["secret_like"] })).toEqual({
      sensitivity: "private",
      source: "explicit",
    });
    expect(resolveSensitivity({ explicit: null, automatic: ["public", "private"] })).toEqual({
      sensitivity: "private",
      source: "dream",
    });
    expect(resolveSensitivity({ explicit: null, automatic: ["public"] })).toEqual({
      sensitivity: "public",
      source: "default",
    });
  });

  it("never lets dreaming override an explicit tag", ({ expect }) => {
    expect(
      outranks(
        { sensitivity: "secret_like", source: "dream" },
        { sensitivity: "public", source: "explicit" },
      ),
    ).toBe(false);
    expect(
      outranks(
        { sensitivity: "private", source: "explicit" },
        { sensitivity: "secret_like", source: "dream" },
      ),
    ).toBe(true);
    expect(
      outranks({ sensitivity: "private", source: "dream" }, { sensitivity: "public", source: "default" }),
    ).toBe(true);
  });
});
