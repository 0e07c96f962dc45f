import { asDigits, SPOKEN_DIGITS } from "@src/domain/text/spoken-digits";
import { describe, it } from "vitest";

describe("digits as people read them out", () => {
  it("writes 零 〇 洞 as 0, 一 幺 as 1 and the rest as their digits, leaving other characters", ({
    expect,
  }) => {
    expect(asDigits("幺洞洞幺")).toBe("1001");
    expect(asDigits("一三八〇零二三四五六七八九")).toBe("1380023456789");
    expect(asDigits("卡号 六二2 X")).toBe("卡号 622 X");
    expect(SPOKEN_DIGITS).toHaveLength(13);
  });
});
