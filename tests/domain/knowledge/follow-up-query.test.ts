import { followUpQuery, isFollowUp } from "@src/domain/knowledge/follow-up-query";
import { describe, it } from "vitest";

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

  it("reads openings that continue, and words that point back before anything they could point to", ({
    expect,
  }) => {
    // A conditional or "what else" opening carries the earlier subject.
    expect(isFollowUp("如果同一个页面上挂了两个 Vue 应用，生成的 id 会不会重复？")).toBe(true);
    expect(isFollowUp("还有别的写法吗")).toBe(true);
    expect(isFollowUp("另外，服务端渲染的时候要注意什么")).toBe(true);
    expect(isFollowUp("这怎么配置才能在生产环境生效")).toBe(true);
    // Pointing back in the first clause: nothing in the question says what "这个" is.
    expect(isFollowUp("后代组件想改这个值的话，直接改可以吗？推荐怎么写？")).toBe(true);
    expect(isFollowUp("两种写法有什么区别，哪个更好")).toBe(true);
    // A yes/no sentence in "…吗？" asks about the thing just discussed, an example after it or not.
    expect(isFollowUp("一个组件上能同时绑两个吗？比如姓和名分开绑")).toBe(true);
    // The same pronoun after a clause that names its referent stands alone.
    expect(isFollowUp("切换标签页的时候组件里填的内容都没了，想把它留住")).toBe(false);
    expect(isFollowUp("弹窗被父元素的 overflow hidden 裁掉了，想把它渲染到 body 下面")).toBe(false);
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
