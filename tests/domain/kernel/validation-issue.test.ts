// A validation issue leaves the Worker as data without the refused value, and each reader words
// it in its own language through zod's locales.

import { explainIssue, issueData } from "@src/domain/kernel/validation-issue";
import { describe, it } from "vitest";
import { z } from "zod";

const first = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) throw new Error("expected a failure");
  return parsed.error.issues[0] as z.core.$ZodIssue;
};

describe("validation issues as data", () => {
  it.for([
    ["a secret-looking string", "sk-live-9f8e7d6c5b4a3f2e1d0c", "", "received string"],
    ["an object", { password: "hunter2" }, {}, "received object"],
    ["a list", ["token=abc"], [], "received array"],
  ] as const)("says the type of %s, never its value", ([, value, standIn, said], { expect }) => {
    const data = issueData(first(z.number(), value));
    expect(data).toEqual({ expected: "number", code: "invalid_type", input: standIn });
    expect(JSON.stringify(data)).not.toMatch(/sk-live|hunter2|token=abc/);
    expect(explainIssue(data as NonNullable<typeof data>, "en")).toContain(said);
  });

  it("keeps bounds, drops path and message, and words them in Chinese and English", ({ expect }) => {
    const data = issueData(first(z.object({ days: z.number().max(30) }), { days: 99 }));
    expect(data).toEqual({ origin: "number", code: "too_big", maximum: 30, inclusive: true });
    expect(explainIssue(data as NonNullable<typeof data>, "zh-CN")).toBe("数值过大：期望 number <=30");
    expect(explainIssue(data as NonNullable<typeof data>, "en")).toBe("Too big: expected number to be <=30");
  });

  it("leaves a custom check's own sentence to the caller", ({ expect }) => {
    const schema = z.string().refine((v) => v === "Asia/Shanghai", "is not a time zone this runtime knows");
    expect(issueData(first(schema, "Mars/Olympus"))).toBeUndefined();
  });
});
