import {
  addsNoCharacter,
  findRestatement,
  isRestatement,
  lexicalSimilarity,
  mergeBarrier,
  type Statement,
  samePolarity,
} from "@src/domain/memory/restatement";
import type { Scope } from "@src/domain/memory/scope";
import { describe, expect, it } from "vitest";

const MINE: Scope = { type: "person", id: "p_1" };
const GROUP: Scope = { type: "chat", id: "qq:group:G1" };
const at = (text: string, o: Partial<Statement> = {}): Statement => ({
  scope: MINE,
  kind: "preference",
  text,
  subjectKey: null,
  ...o,
});

describe("restatements", () => {
  it("merges the same words said again, with other punctuation or a particle", () => {
    expect(isRestatement(at("郑思雨喜欢摇滚音乐"), at("郑思雨喜欢摇滚音乐啊"))).not.toBeNull();
    expect(isRestatement(at("王峰喜欢徒步、长跑和攀岩"), at("王峰喜欢徒步，长跑，攀岩"))).not.toBeNull();
  });

  it("reads 特别, 不错 and 未来 as no negation", () => {
    expect(samePolarity("焦彦喜欢巴赫的组曲", "焦彦特别喜欢巴赫的组曲")).toBe(true);
    expect(samePolarity("孙悦的面食做得很好", "孙悦的面食做得不错")).toBe(true);
    expect(samePolarity("郝明想学编程", "郝明未来想学编程")).toBe(true);
    expect(samePolarity("郝明想学编程", "郝明不想学编程")).toBe(false);
  });

  it("does not merge the same frame with another object", () => {
    expect(isRestatement(at("张曼婷喜欢绘画"), at("张曼婷喜欢弹钢琴"))).toBeNull();
    expect(lexicalSimilarity("张曼婷喜欢绘画", "张曼婷喜欢弹钢琴")).toBeLessThan(0.8);
  });

  it("merges lexically only when the shorter wording adds no character: one differing value stays apart", () => {
    const long = "爱丽丝下个月要去医院复查第二次，医生说要空腹";
    expect(lexicalSimilarity(`${long}甲`, `${long}乙`)).toBeGreaterThan(0.88);
    expect(addsNoCharacter(`${long}甲`, `${long}乙`)).toBe(false);
    expect(isRestatement(at(`${long}甲`), at(`${long}乙`))).toBeNull();
    expect(addsNoCharacter("李雪喜欢喜剧和爱情片", "李雪喜欢爱情片和喜剧")).toBe(true);
  });

  it("never merges across scopes, even with identical text", () => {
    expect(mergeBarrier(at("我喜欢猫"), at("我喜欢猫", { scope: GROUP }))).toBe("different scopes");
    expect(isRestatement(at("我喜欢猫"), at("我喜欢猫", { scope: GROUP }))).toBeNull();
  });

  it("never merges items of different kinds", () => {
    expect(isRestatement(at("小明要去休息了", { kind: "task" }), at("小明要去休息了啦"))).toBeNull();
  });

  it("leaves two values of one fact slot to supersede, and never merges two slots", () => {
    const residence = "attr:xiaoming:residence";
    expect(
      mergeBarrier(
        at("小明住在北京", { kind: "fact", subjectKey: residence }),
        at("小明住在北京市", { kind: "fact", subjectKey: residence }),
      ),
    ).toBe("same slot: supersede decides");
    expect(
      isRestatement(
        at("小明在北京工作", { kind: "fact", subjectKey: "attr:xiaoming:work" }),
        at("小明在北京工作啊", { kind: "fact", subjectKey: "attr:xiaoming:school" }),
      ),
    ).toBeNull();
  });

  it("never merges a statement with its negation or with another number", () => {
    expect(
      isRestatement(at("宫晓燕会开车", { kind: "fact" }), at("宫晓燕不会开车", { kind: "fact" })),
    ).toBeNull();
    expect(isRestatement(at("李雪喜欢川菜"), at("李雪不喜欢川菜"))).toBeNull();
    expect(isRestatement(at("郑思雨喜欢做手工活"), at("郑思雨讨厌做手工活"))).toBeNull();
    expect(
      isRestatement(at("王峰有两个孩子", { kind: "fact" }), at("王峰有三个孩子", { kind: "fact" })),
    ).toBeNull();
    expect(isRestatement(at("陈阳的生日是5月3日"), at("陈阳的生日是5月13日"))).toBeNull();
  });

  it("merges across phrasings only through vectors, and only above the cosine threshold", () => {
    const v = (x: number) => [x, Math.sqrt(1 - x * x)];
    const a = at("陆琳喜欢听古典音乐", { vector: v(1) });
    expect(isRestatement(a, at("陆琳爱听交响乐和协奏曲", { vector: v(0.99) }))).not.toBeNull();
    expect(isRestatement(a, at("陆琳爱听交响乐和协奏曲", { vector: v(0.5) }))).toBeNull();
    expect(isRestatement(a, at("陆琳爱听交响乐和协奏曲"))).toBeNull();
  });

  it("picks the closest of several items", () => {
    const items = [at("陈阳喜欢滑板"), at("陈阳喜欢滑板、攀岩、街舞"), at("陈阳喜欢川菜")];
    expect(findRestatement(at("陈阳喜欢滑板，攀岩和街舞"), items)?.item.text).toBe(
      "陈阳喜欢滑板、攀岩、街舞",
    );
    expect(findRestatement(at("陈阳喜欢滑雪"), items)).toBeNull();
  });
});
