import { MAX_JSON_DEPTH, nestsDeeperThan, parseBoundedJson } from "@src/domain/kernel/bounded-json";
import { describe, it } from "vitest";

describe("bounded JSON", () => {
  it("counts nesting of arrays and objects together", ({ expect }) => {
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(nestsDeeperThan("[][][][]", 1)).toBe(false);
  });

  it("does not count brackets inside strings, escaped quotes included", ({ expect }) => {
    const text = JSON.stringify({ a: "[[[[{{{{", b: 'say \\"[[[[\\" ok', c: ["\\", "[["] });
    expect(nestsDeeperThan(text, 2)).toBe(false);
    expect(parseBoundedJson(text, 2)).toMatchObject({ ok: true });
  });

  it("refuses JSON one level over the limit and names the limit, and accepts it at the limit", ({
    expect,
  }) => {
    const at = `${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`;
    expect(parseBoundedJson(at)).toMatchObject({ ok: true });
    const over = `[${at}]`;
    expect(parseBoundedJson(over)).toEqual({
      ok: false,
      tooDeep: true,
      reason: `nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels (the limit)`,
    });
  });

  it("refuses 100,000 levels without building them, and says when the syntax is wrong instead", ({
    expect,
  }) => {
    expect(parseBoundedJson("[".repeat(100_000))).toMatchObject({ ok: false, tooDeep: true });
    expect(parseBoundedJson("{nope")).toMatchObject({ ok: false, tooDeep: false });
  });
});
