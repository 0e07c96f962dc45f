import { inboundRecord, rewrittenRecord } from "@src/domain/history/message-record";
import { valueHider } from "@src/domain/privacy/announced-credential";
import { hideInJson } from "@src/domain/privacy/named-afterwards";
import { describe, it } from "vitest";
import { messageEvent } from "../../fakes/inbound";

describe("a logged record rewritten", () => {
  const hide = valueHider("woaichixigua");
  const hideJson = (json: string) => hideInJson(json, hide);
  const logged = () => {
    const event = messageEvent({ chat: "qq:private:U1", sender: "U1", text: "woaichixigua" });
    const record = inboundRecord({ ...event, raw: { content: "woaichixigua", id: "m1" } });
    if (!record) throw new Error("no record");
    return record;
  };

  it("hides the value in its text and raw payload and rebuilds its tokens from the new text", ({
    expect,
  }) => {
    const before = logged();
    expect(before.tokens).toContain("woaichixigua");
    const after = rewrittenRecord(before, hide, hideJson);
    expect(JSON.stringify(after)).not.toContain("woaichixigua");
    expect(after.text).toBe("[已隐藏的凭据]");
    // The same tokens a record logged with the masked text would have.
    const masked = messageEvent({ chat: "qq:private:U1", sender: "U1", text: "[已隐藏的凭据]" });
    expect(after.tokens).toBe(inboundRecord(masked)?.tokens);
    expect({ ...after, text: "", tokens: "", rawJson: "" }).toEqual({
      ...before,
      text: "",
      tokens: "",
      rawJson: "",
    });
  });

  it("is the same record when there is nothing to hide", ({ expect }) => {
    const record = logged();
    const other = valueHider("something-else-9");
    expect(rewrittenRecord(record, other, (json) => hideInJson(json, other))).toBe(record);
  });
});
