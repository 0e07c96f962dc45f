import { findDescribedValues } from "@src/domain/privacy/credential-described-values";
import { maskCredentials } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";

/** The values each message describes, as the detector reads them. */
const values = (text: string) => findDescribedValues(text).map((f) => text.slice(f.start, f.end));

describe("values described or dictated instead of typed", () => {
  it.for([
    ["wifi密码是八个八", ["八个八"]],
    ["门锁密码改成了三个五三个六", ["三个五三个六"]],
    ["电脑开机密码 大写A 小写b 然后123", ["大写A 小写b 然后123"]],
    ["bike lock: three nines then a zero", ["three nines then a zero"]],
    ["八个八，就是wifi密码", ["八个八"]],
    ["the code is 1-2-3-4", ["1-2-3-4"]],
    ["locker combo is 12 24 36", ["12 24 36"]],
    ["楼下大门 零零八八 井号", ["零零八八"]],
  ] as const)("reads %j as %j, the value only", ([text, expected], { expect }) => {
    expect(values(text)).toEqual(expect.arrayContaining([...expected]));
    for (const v of expected) expect(maskCredentials(text)).not.toContain(v);
  });

  // Advice, examples, questions and counting use the same words without a value.
  it.for([
    "别用八个八这种密码，太容易猜了",
    "密码不能全是数字，要加字母",
    "一个一个试吧 总有一个对的",
    "儿子考了三个一百分",
    "code 1-2-3 steps: plan, build, ship",
    "gate 4 is closed, go to gate 6",
    "密码是八位数的，你自己想",
  ])("finds nothing in %j", (text, { expect }) => {
    expect(values(text)).toEqual([]);
    expect(maskCredentials(text)).toBe(text);
  });
});
