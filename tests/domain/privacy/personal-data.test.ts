import { findSensitiveData, maskSensitiveData } from "@src/domain/privacy/credentials";
import { findPersonalData, PERSONAL_DATA_MASK, validIdNumber } from "@src/domain/privacy/personal-data";
import { describe, it } from "vitest";

describe("personal numbers", () => {
  it("checks an ID number's date and check character, not only its shape", ({ expect }) => {
    expect(validIdNumber("11010519491231002X")).toBe(true);
    expect(validIdNumber("110105194912310021")).toBe(false);
    expect(validIdNumber("11010519490231002X")).toBe(false);
  });

  // Someone who mistypes one digit of their own ID number still gives it away: after an ID word,
  // a real date of birth is check enough. Without the word, the check character decides.
  it.for([
    ["我身份证号 110101199003077777", true],
    ["身份证：440306198512121237", true],
    ["身份證號碼是 310104198808081234 幫我填一下", true],
    ["my ID card number is 110105194912310021", true],
    ["订单号 110101199003077777", false],
    ["身份证号 110101199013077777", false],
    ["身份证号码是18位的", false],
  ] as const)("reads %j as an ID number: %s", ([text, found], { expect }) => {
    expect(findPersonalData(text).some((f) => f.id === "cn-id")).toBe(found);
    if (found) expect(maskSensitiveData(text)).toContain(PERSONAL_DATA_MASK);
    else expect(maskSensitiveData(text)).toBe(text);
  });

  it("takes a Luhn-valid number for a card only with a card network's prefix or a card word", ({
    expect,
  }) => {
    expect(findPersonalData("4111111111111111").map((m) => m.id)).toEqual(["bank-card"]);
    expect(findPersonalData("订单 1234567890123452")).toEqual([]);
    expect(findPersonalData("卡号 1234567890123452").map((m) => m.id)).toEqual(["bank-card"]);
    expect(findPersonalData("4111111111111112")).toEqual([]);
  });

  it("masks a mobile number written any way, but not the account number inside a chat or account key", ({
    expect,
  }) => {
    expect(maskSensitiveData("电话：１３８１２３４５６７８")).toBe(`电话：${PERSONAL_DATA_MASK}`);
    expect(maskSensitiveData("打 138 1234 5678 或 +86-13812345678")).toBe(
      `打 ${PERSONAL_DATA_MASK} 或 ${PERSONAL_DATA_MASK}`,
    );
    expect(findSensitiveData("onebot:user:13812345678 已关联")).toEqual([]);
  });

  // People group numbers as they read them, or say them in Chinese numerals; the same checks decide.
  it.for([
    ["身份证 110101 19900307 7715", "110101 19900307 7715"],
    ["身份证号 110101-1990-0307-7715", "110101-1990-0307-7715"],
    ["call me at 139.1234.5678", "139.1234.5678"],
    ["station pickup contact: 199-44998335", "199-44998335"],
    ["卡号6214.8324.5114.1167，开户行建行", "6214.8324.5114.1167"],
    ["我手机 幺三八 幺二三四 五六七八", "幺三八 幺二三四 五六七八"],
    ["身份证 一一零一零一一九九零零三零七七七一五", "一一零一零一一九九零零三零七七七一五"],
    ["卡号是六二二二零二一二三四五六七八九四", "六二二二零二一二三四五六七八九四"],
    // A wrong check character after 身份证号 is a mistyped ID number, still the person's.
    ["身份证号 511607 19910704 385X 系统提示校验错误", "511607 19910704 385X"],
    // Near misses: digits one by one, order numbers, Luhn failures, times.
    ["1 3 8 1 2 3 4 5 6 7 8 报数", null],
    ["订单编号：２０２４０６１５８８７７６６５５", null],
    ["test card 6230616636129606 fails the checksum", null],
    ["会议 2024.06.15 10.30 开始", null],
  ] as const)("masks the number in %j, if any", ([text, number], { expect }) => {
    expect(maskSensitiveData(text)).toBe(number === null ? text : text.replace(number, PERSONAL_DATA_MASK));
  });

  it("leaves digits inside any chat or account key alone, wherever in the key they fall", ({ expect }) => {
    // An openid is letters and digits; a run that looks like a mobile, card or ID number can
    // sit in its middle, and the key must still read whole in a reply or the log.
    for (const key of [
      "qq:user:OWNERC2C5EB13812345678E7AE8486F3DD8D9ECC",
      "qq:group:G4CA4E4F4111111111111111F3290BCB",
      "qq:private:AB11010519491231002XCD",
      "onebot:group:9913812345678",
    ]) {
      expect(findPersonalData(key)).toEqual([]);
      expect(maskSensitiveData(`同一人物的账号：${key}（config）`)).toBe(`同一人物的账号：${key}（config）`);
    }
    expect(maskSensitiveData("qq:user:ABC 的电话 13812345678")).toBe(
      `qq:user:ABC 的电话 ${PERSONAL_DATA_MASK}`,
    );
    expect(maskSensitiveData("号码B13812345678E")).toBe(`号码B${PERSONAL_DATA_MASK}E`);
    expect(maskSensitiveData("tel:mobile:13812345678")).toBe(`tel:mobile:${PERSONAL_DATA_MASK}`);
    // A short made-up id around a number is not a key the bot writes.
    expect(maskSensitiveData("qq:user:a13812345678")).toBe(`qq:user:a${PERSONAL_DATA_MASK}`);
    expect(maskSensitiveData("qq:user:A13812345678B")).toBe(`qq:user:A${PERSONAL_DATA_MASK}B`);
  });

  it("reads thousands of openid-shaped keys in a sentence without masking any of them", ({ expect }) => {
    let seed = 20261204;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    // Digit-heavy openids, letters scattered: the ones a number detector could take a bite out of.
    const char = () => (next() < 0.85 ? String(Math.floor(next() * 10)) : "ABCDEF"[Math.floor(next() * 6)]);
    const openid = () => Array.from({ length: 32 }, char).join("");
    const masked: string[] = [];
    for (let i = 0; i < 4000; i++) {
      const line = `出现在 qq:group:${openid()}，同一人物的账号：qq:user:${openid()}`;
      if (maskSensitiveData(line) !== line) masked.push(line);
    }
    expect(masked).toEqual([]);
  });

  it("keeps a credential's mask where a credential and a personal number overlap", ({ expect }) => {
    expect(maskSensitiveData("密码是13812345678")).toBe("密码是[已隐藏的凭据]");
  });
});
