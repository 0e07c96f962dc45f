import {
  leadingMentionId,
  mentionedIds,
  normalizeQqUrl,
  parseQqAttachments,
  parseQqContent,
  type QqContentContext,
} from "@src/adapters/qq/qq-content";
import { composeMessageText } from "@src/domain/chat/message-text";
import { describe, it } from "vitest";

const NONE: QqContentContext = { botIds: new Set(), names: new Map() };
const text = (content: string, context = NONE) => composeMessageText(parseQqContent(content, context));

describe("parseQqContent", () => {
  it("trims the leading space the platform leaves after the stripped @bot", async ({ expect }) => {
    expect(text(" 你好 /help")).toBe("你好 /help");
  });

  it("drops the bot's mention in either guild form and keeps the rest", async ({ expect }) => {
    const context = { botIds: new Set(["6158788878435714165"]), names: new Map() };
    expect(text("<@!6158788878435714165> ndnnd", context)).toBe("ndnnd");
    expect(text("<@6158788878435714165>ndnnd", context)).toBe("ndnnd");
  });

  it("turns other mentions into @name when known, else @id", async ({ expect }) => {
    const context = { botIds: new Set(["BOT"]), names: new Map([["42", "小明"]]) };
    expect(text("<@!BOT> ask <@!42> and <@99> now", context)).toBe("ask @小明 and @99 now");
  });

  it("reads the group at-user tag, self-closing or not", async ({ expect }) => {
    const context = { botIds: new Set(["ME"]), names: new Map([["U1", "Alice"]]) };
    expect(text('<qqbot-at-user id="ME" /> hi <qqbot-at-user id="U1" />!', context)).toBe("hi @Alice !");
    expect(text('<qqbot-at-user id="U2">x', context)).toBe("@U2 x");
  });

  it("reads @everyone, emoji, faces and channel links", async ({ expect }) => {
    expect(text("<qqbot-at-everyone /> 开会")).toBe("@全体成员 开会");
    expect(text("好<emoji:4>的")).toBe("好 [表情] 的");
    expect(text('<faceType=1,faceId="13",ext="eyJ0ZXh0Ijoi5ZGy54mZIn0=">哈')).toBe("[表情] 哈");
    expect(text("see <#100010>")).toBe("see #100010");
  });

  it("unescapes entities only after markup is cut out", async ({ expect }) => {
    expect(text("a &lt;@123&gt; &amp; b")).toBe("a <@123> & b");
    expect(parseQqContent("&lt;@123&gt;", NONE)).toEqual([{ type: "text", text: "<@123>" }]);
  });

  it("keeps unknown angle-bracket text as text", async ({ expect }) => {
    expect(text("x <unknown> y")).toBe("x <unknown> y");
  });

  it("lists mention ids and the leading mention", async ({ expect }) => {
    expect(mentionedIds('<@!1> a <@2> <qqbot-at-user id="3" />')).toEqual(["1", "2", "3"]);
    expect(leadingMentionId("  <@!77> hi")).toBe("77");
    expect(leadingMentionId("hi <@!77>")).toBeNull();
  });
});

describe("parseQqAttachments", () => {
  it("maps each content type to a segment and an attachment record", async ({ expect }) => {
    const { segments, attachments } = parseQqAttachments([
      {
        content_type: "image/jpeg",
        filename: "A1B2.jpg",
        url: "https://multimedia.nt.qq.com.cn/download?a=1",
      },
      {
        content_type: "voice",
        filename: "x.amr",
        url: "https://example.test/x.amr",
        voice_wav_url: "https://example.test/x.wav",
        asr_refer_text: "recognised speech",
      },
      { content_type: "video/mp4", filename: "v.mp4", url: "https://example.test/v.mp4" },
      { content_type: "file", filename: "report.pdf", url: "https://example.test/report.pdf" },
    ]);
    expect(segments).toEqual([
      { type: "image" },
      { type: "voice", transcript: "recognised speech" },
      { type: "video" },
      { type: "file", name: "report.pdf" },
    ]);
    expect(attachments).toEqual([
      {
        kind: "image",
        url: "https://multimedia.nt.qq.com.cn/download?a=1",
        filename: "A1B2.jpg",
        contentType: "image/jpeg",
        transcript: null,
      },
      {
        kind: "voice",
        url: "https://example.test/x.wav",
        filename: "x.amr",
        contentType: "voice",
        transcript: "recognised speech",
      },
      {
        kind: "video",
        url: "https://example.test/v.mp4",
        filename: "v.mp4",
        contentType: "video/mp4",
        transcript: null,
      },
      {
        kind: "file",
        url: "https://example.test/report.pdf",
        filename: "report.pdf",
        contentType: "file",
        transcript: null,
      },
    ]);
  });

  it("composes media placeholders after the text", async ({ expect }) => {
    const media = parseQqAttachments([
      { content_type: "image/png", url: "x" },
      { content_type: "voice", url: "y", asr_refer_text: "明天见" },
    ]);
    expect(composeMessageText([...parseQqContent("看这个", NONE), ...media.segments])).toBe(
      "看这个 [图片] [语音] 明天见",
    );
  });

  it("prefixes https:// to URLs that arrive without a scheme", async ({ expect }) => {
    const { attachments } = parseQqAttachments([
      { content_type: "image/gif", url: "gchat.qpic.cn/gchatpic_new/0/0-0-ABC/0" },
    ]);
    expect(attachments[0]?.url).toBe("https://gchat.qpic.cn/gchatpic_new/0/0-0-ABC/0");
    expect(normalizeQqUrl("//host.test/a")).toBe("https://host.test/a");
    expect(normalizeQqUrl("http://host.test/a")).toBe("http://host.test/a");
  });

  it("guesses the kind from the file name when there is no content type", async ({ expect }) => {
    const { segments, attachments } = parseQqAttachments([
      { filename: "photo.PNG", url: "https://x.test/1" },
      { filename: "blob.bin", url: "https://x.test/2" },
      { url: null },
    ]);
    expect(segments).toEqual([
      { type: "image" },
      { type: "other", label: "附件" },
      { type: "other", label: "附件" },
    ]);
    expect(attachments.map((a) => [a.kind, a.url])).toEqual([
      ["image", "https://x.test/1"],
      ["other", "https://x.test/2"],
      ["other", null],
    ]);
  });

  it("returns nothing for no attachments", async ({ expect }) => {
    expect(parseQqAttachments(undefined)).toEqual({ segments: [], attachments: [] });
  });
});
