import { composeMessageText, unescapeEntities } from "@src/domain/chat/message-text";
import { it } from "vitest";

it("composes mentions and media placeholders into one normalized text", ({ expect }) => {
  const text = composeMessageText([
    { type: "mention", name: "小明" },
    { type: "text", text: " 看这个  " },
    { type: "image" },
    { type: "face" },
    { type: "text", text: "哈哈" },
  ]);
  expect(text).toBe("@小明 看这个 [图片] [表情] 哈哈");
});

it("keeps a voice transcript and a file name", ({ expect }) => {
  expect(composeMessageText([{ type: "voice", transcript: "你好" }])).toBe("[语音] 你好");
  expect(composeMessageText([{ type: "file", name: "a.pdf" }])).toBe("[文件] a.pdf");
});

it("unescapes named and numeric entities, leaving unknown ones", ({ expect }) => {
  expect(unescapeEntities("a &amp; b &lt;c&gt; &#91;x&#93; &#x4E2D; &bogus;")).toBe(
    "a & b <c> [x] 中 &bogus;",
  );
});
