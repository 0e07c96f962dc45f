import { classifyExplicit, explicitRequest, extractStatements } from "@src/domain/memory/rule-extractor";
import { describe, it } from "vitest";

/** Subject keys use the speaker id; here it is the name, to keep expectations readable. */
const XIAOMING = { name: "小明", id: "小明" } as const;

describe("explicitRequest", () => {
  it.for([
    ["记住我喜欢猫", "我喜欢猫"],
    ["请帮我记住：周五交周报", "周五交周报"],
    ["remember that I hate cilantro", "I hate cilantro"],
    ["Remember: my birthday is May 1", "my birthday is May 1"],
    ["你还记住了吗？", null],
    ["我记住了", null],
    ["do you remember me?", null],
    ["记住这个", null],
    ["remember that!", null],
  ] as const)("%s → %s", ([text, expected], { expect }) => {
    expect(explicitRequest(text)).toBe(expected);
  });
});

describe("extractStatements", () => {
  it.for([
    ["我喜欢猫", { kind: "preference", text: "小明喜欢猫", subjectKey: "pref:小明:猫" }],
    ["我不喜欢香菜。", { kind: "preference", text: "小明不喜欢香菜", subjectKey: "pref:小明:香菜" }],
    ["我的生日是五月一日", { kind: "fact", text: "小明的生日是五月一日", subjectKey: "attr:小明:生日" }],
    ["我是程序员", { kind: "fact", text: "小明是程序员", subjectKey: null }],
    ["I love hot pot", { kind: "preference", text: "小明 loves hot pot", subjectKey: "pref:小明:hotpot" }],
    [
      "my favourite color is green",
      { kind: "fact", text: "小明's favourite color is green", subjectKey: "attr:小明:favouritecolor" },
    ],
    ["我们决定周五发布 1.0", { kind: "decision", text: "决定：周五发布 1.0", subjectKey: null }],
    ["群规：禁止刷屏", { kind: "rule", text: "群规：禁止刷屏", subjectKey: null }],
    ["提醒我明天交报告", { kind: "task", text: "小明要明天交报告", subjectKey: null }],
  ] as const)("%s", ([text, expected], { expect }) => {
    expect(extractStatements(text, XIAOMING)).toEqual([expect.objectContaining(expected)]);
  });

  it.for(["我喜欢什么？", "我是谁", "我是说你不对", "今天天气不错", "what do I like?", "I'm going home"])(
    "finds nothing in %s",
    (text, { expect }) => {
      expect(extractStatements(text, XIAOMING)).toEqual([]);
    },
  );

  it("splits a message into statements and drops the privacy request", ({ expect }) => {
    expect(extractStatements("我喜欢猫，我的工作是设计师，别告诉别人", XIAOMING).map((e) => e.text)).toEqual([
      "小明喜欢猫",
      "小明的工作是设计师",
    ]);
  });
});

describe("subject keys", () => {
  it("keep two speakers of the same name apart", ({ expect }) => {
    const [a] = extractStatements("我喜欢猫", { name: "小明", id: "qq:user:A" });
    const [b] = extractStatements("我喜欢猫", { name: "小明", id: "qq:user:B" });
    expect(a?.text).toBe(b?.text);
    expect(a?.subjectKey).not.toBe(b?.subjectKey);
  });
});

describe("classifyExplicit", () => {
  it("keeps an unrecognised request as a fact in the speaker's words, important", ({ expect }) => {
    expect(classifyExplicit("周五交周报", XIAOMING)).toEqual([
      { kind: "fact", text: "周五交周报", importance: 0.7, subjectKey: null },
    ]);
    expect(classifyExplicit("我怕狗", XIAOMING)[0]?.text).toBe("小明怕狗");
    expect(classifyExplicit("我喜欢猫", XIAOMING)[0]).toMatchObject({ kind: "preference", importance: 0.7 });
  });
});
