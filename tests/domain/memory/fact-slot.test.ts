import { slotOf, slotOfNamed } from "@src/domain/memory/fact-slot";
import { extractStatements } from "@src/domain/memory/rule-extractor";
import { describe, it } from "vitest";

const XIAOMING = { name: "小明", id: "小明" } as const;

describe("slotOf", () => {
  it.for([
    ["我住在北京", "residence", "小明住在北京"],
    ["我搬到上海了", "residence", "小明住在上海"],
    ["我现在住在杭州啦", "residence", "小明住在杭州"],
    ["我家在成都", "residence", "小明住在成都"],
    ["我在腾讯上班", "work", "小明在腾讯工作"],
    ["我跳槽到了阿里", "work", "小明在阿里工作"],
    ["我现在在字节跳动工作", "work", "小明在字节跳动工作"],
    ["我在北大读书", "school", "小明在北大上学"],
    ["我最近正在学做川湘菜", "learning", "小明在学做川湘菜"],
    ["最近我在学习编程", "learning", "小明在学编程"],
    ["其实最近我还在学习攀岩", "learning", "小明在学攀岩"],
    ["我最近在看《活着》", "reading", "小明在看《活着》"],
    ["I live in Paris", "residence", "小明 lives in Paris"],
    ["I moved to Berlin", "residence", "小明 lives in Berlin"],
    ["I work at Acme", "work", "小明 works at Acme"],
  ] as const)("%s → %s", ([clause, slot, text], { expect }) => {
    expect(slotOf(clause, "小明")).toMatchObject({ slot, text });
  });

  it.for([
    "我住得很远",
    "我在学校上学了吗",
    "我在学校打篮球",
    "我喜欢上海",
    "我在想搬家的事",
    "我觉得住在北京不错",
    "I like living in Paris",
    "我目前在一家公司工作",
    "I work at a bank",
  ])("%s has no slot", (clause, { expect }) => {
    expect(slotOf(clause, "小明")?.slot ?? null).not.toBe("residence");
    if (clause !== "我在学校上学了吗") expect(slotOf(clause, "小明")).toBeNull();
  });

  it("reads the model's wording in the speaker's name", ({ expect }) => {
    expect(slotOfNamed("小明搬到了上海", "小明")).toMatchObject({ slot: "residence", value: "上海" });
    expect(slotOfNamed("Alice lives in Paris", "Alice")).toMatchObject({ slot: "residence", value: "Paris" });
    expect(slotOfNamed("小红住在北京", "小明")).toBeNull();
  });
});

describe("extractStatements with slots", () => {
  it("gives both wordings of one slot the same subject", ({ expect }) => {
    const [a] = extractStatements("我住在北京", XIAOMING);
    const [b] = extractStatements("我搬到上海了！", XIAOMING);
    const [c] = extractStatements("我的住址是广州天河", XIAOMING);
    expect(a?.subjectKey).toBe("attr:小明:residence");
    expect(b?.subjectKey).toBe(a?.subjectKey);
    expect(c?.subjectKey).toBe(a?.subjectKey);
  });

  it("reads a slot from a clause next to a question", ({ expect }) => {
    const found = extractStatements("那也很好啊，最近我在学习编程，你觉得学习编程有什么好处吗？", XIAOMING);
    expect(found).toEqual([
      { kind: "fact", text: "小明在学编程", importance: 0.5, subjectKey: "attr:小明:learning" },
    ]);
  });
});
