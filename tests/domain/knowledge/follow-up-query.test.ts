import { describe, it } from "vitest";
import { followUpQuery, isFollowUp } from "../../../src/domain/knowledge/follow-up-query";

const user = (text: string) => ({ role: "user" as const, text });
const bot = (text: string) => ({ role: "assistant" as const, text });

describe("follow-up fusion", () => {
  it("tells a question that leans on earlier turns from one that stands alone", ({ expect }) => {
    expect(isFollowUp("那它的缓存呢？")).toBe(true);
    expect(isFollowUp("这个能用在组件上吗")).toBe(true);
    expect(isFollowUp("缓存呢")).toBe(true); // too short to stand alone
    expect(isFollowUp("计算属性缓存和方法有什么区别？")).toBe(false);
    expect(isFollowUp("")).toBe(false);
  });

  it("searches a follow-up after the last two user turns, oldest first, without the bot's", ({ expect }) => {
    const recent = [
      user("v-for 怎么用？"),
      bot("用 v-for 渲染列表。"),
      user("计算属性怎么写？"),
      user("KeepAlive 是什么？"),
    ];
    expect(followUpQuery("那它的 max 呢？", recent)).toBe(
      "计算属性怎么写？\nKeepAlive 是什么？\n那它的 max 呢？",
    );
  });

  it("leaves a standalone question as it is, and skips repeats of the question", ({ expect }) => {
    const recent = [user("KeepAlive 是什么？")];
    expect(followUpQuery("计算属性缓存和方法有什么区别？", recent)).toBe("计算属性缓存和方法有什么区别？");
    expect(followUpQuery("那它呢？", [user("那它呢？")])).toBe("那它呢？");
  });
});
