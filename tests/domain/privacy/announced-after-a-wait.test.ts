import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { throughCredentialCues as conversation } from "../../support/credential-cues";

describe("a value sent after the person looked it up", () => {
  it.for([
    ["我家wifi密码是", "等一下我找找", "Xy12ab34"],
    ["服务器密码：", "稍等", "“Pa55word!”"],
    ["密碼是", "我找找哈", "Xy12ab34"],
    ["the wifi password is", "hold on", "Xy12ab34"],
  ])("masks the value two messages after %j", (messages, { expect }) => {
    const last = conversation(messages).at(-1) ?? "";
    expect(last).toContain(CREDENTIAL_MASK);
    expect(last).not.toMatch(/Xy12ab34|Pa55word/);
  });

  it("waits for one such message only, and any other message ends the cue", ({ expect }) => {
    expect(conversation(["密码是", "等一下", "稍等", "Xy12ab34"]).at(-1)).toBe("Xy12ab34");
    expect(conversation(["密码是", "算了不说了", "Xy12ab34"]).at(-1)).toBe("Xy12ab34");
  });
});
