import { describe, it } from "vitest";
import { findSensitiveData, maskSensitiveData } from "../../../src/domain/privacy/credentials";
import {
  findPersonalData,
  PERSONAL_DATA_MASK,
  validIdNumber,
} from "../../../src/domain/privacy/personal-data";

describe("personal numbers", () => {
  it("checks an ID number's date and check character, not only its shape", ({ expect }) => {
    expect(validIdNumber("11010519491231002X")).toBe(true);
    expect(validIdNumber("110105194912310021")).toBe(false);
    expect(validIdNumber("11010519490231002X")).toBe(false);
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

  it("keeps a credential's mask where a credential and a personal number overlap", ({ expect }) => {
    expect(maskSensitiveData("密码是13812345678")).toBe("密码是[已隐藏的凭据]");
  });
});
