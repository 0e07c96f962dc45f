import { isRecapQuestion, OfflineChatModel } from "@src/domain/agent/offline-chat-model";
import { describe, it } from "vitest";

const ask = (content: string, summary: string | null) =>
  new OfflineChatModel().complete({
    messages: [
      { role: "system", content: "persona" },
      { role: "user", content },
    ],
    summary,
    recalled: [{ source: "memory", text: "用户喜欢爬山", citation: "记忆·本聊天" }],
  });

describe("the offline model and the latest summary", () => {
  it("answers a recap question from the summary", async ({ expect }) => {
    const r = await ask("小明: 我们之前聊过什么", "2026-11-30（群聊，5 条消息，3 人）\n话题：露营、帐篷");
    expect(r.ok && r.value.text).toContain("话题：露营、帐篷");
  });

  it("answers anything else from what was recalled, and a recap without a summary likewise", async ({
    expect,
  }) => {
    const other = await ask("今天吃什么", "话题：露营");
    expect(other.ok && other.value.text).toContain("用户喜欢爬山");
    expect(other.ok && other.value.text).not.toContain("露营");
    const none = await ask("我们之前聊过什么", null);
    expect(none.ok && none.value.text).toContain("用户喜欢爬山");
  });

  it.for(["我们之前聊过什么", "昨天说了啥", "上次我们聊了些什么", "What did we talk about yesterday?"])(
    "knows %s as a recap question",
    (q, { expect }) => {
      expect(isRecapQuestion(q)).toBe(true);
    },
  );

  it.for(["聊天记录怎么导出", "你说什么呢", "what is a summary"])(
    "does not take %s for a recap question",
    (q, { expect }) => {
      expect(isRecapQuestion(q)).toBe(false);
    },
  );
});
