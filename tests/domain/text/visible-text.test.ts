import { hasInvisibleControls, visibleText, withoutFormatCharacters } from "@src/domain/text/visible-text";
import { describe, it } from "vitest";

describe("visible text", () => {
  it("removes every bidirectional control and isolate", ({ expect }) => {
    const controls = [
      "\u202A",
      "\u202B",
      "\u202C",
      "\u202D",
      "\u202E",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
    ];
    for (const ch of [...controls, "\u200E", "\u200F", "\u061C"])
      expect(visibleText(`a${ch}b`), ch.codePointAt(0)?.toString(16)).toBe("ab");
  });

  it("removes zero-width characters, the BOM, the soft hyphen and tag characters", ({ expect }) => {
    expect(visibleText("\uFEFF年\u200B度\u200C计\u200D划\u2060\u00AD\u{E0041}")).toBe("年度计划");
  });

  it("turns control characters and line separators into a space, and keeps what is visible", ({ expect }) => {
    expect(visibleText("第一\t行\u0007二\u2028三\r\n")).toBe("第一 行 二 三");
    const seen = "Ünïcödé 文件名 (v2) – 😀.md";
    expect(visibleText(seen)).toBe(seen);
    expect(hasInvisibleControls(seen)).toBe(false);
    expect(hasInvisibleControls("club\u202Ebulc")).toBe(true);
  });

  it("keeps the lines of longer text", ({ expect }) => {
    expect(withoutFormatCharacters("第一行\u200B\n第二行\u202E")).toBe("第一行\n第二行");
  });
});
