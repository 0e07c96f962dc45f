import { maskSensitiveData } from "@src/domain/privacy/credentials";
import { PERSONAL_DATA_MASK } from "@src/domain/privacy/personal-data";
import { findTravelDocuments } from "@src/domain/privacy/travel-documents";
import { describe, it } from "vitest";

const found = (text: string) => findTravelDocuments(text).map((f) => text.slice(f.start, f.end));

describe("the numbers of passports and other identity documents", () => {
  // A passport or a permit number books a flight or opens an account in its holder's name, as an
  // ID number does: after the document's name it is masked like one.
  it.for([
    ["我护照号 E12345678 帮我订机票", "E12345678"],
    ["passport number G12345678, expires 2030", "G12345678"],
    ["港澳通行证号码 C12345678", "C12345678"],
    ["香港身份证 A123456(7)", "A123456(7)"],
    ["my HKID is Y654321(A)", "Y654321(A)"],
    ["台胞证：01234567", "01234567"],
    ["回乡证 H0123456789 过关用", "H0123456789"],
    ["護照號碼：EB1234567", "EB1234567"],
    ["台湾身份证字号 A123456789", "A123456789"],
    ["身份證號碼：R274615(3)，幫我填表", "R274615(3)"],
    ["澳门身份证 1234567(8)", "1234567(8)"],
    ["护照号 E 4821 9375 核对一下", "E 4821 9375"],
    ["护照号EC-3817264 订票用", "EC-3817264"],
    ["Malaysian passport A39281746 for the booking", "A39281746"],
    ["签证号 08274619 酒店要填", "08274619"],
    ["在留卡番号 AB12345678CD", "AB12345678CD"],
    // The document named in one sentence, its number given in the next of the same message.
    ["回乡证是M开头的对吧？我的是 M12345678", "M12345678"],
    ["护照办好了。号码是 E87654321，帮我订票", "E87654321"],
    ["帮我填下签证表，护照在我这。号码：EA7654321", "EA7654321"],
    ["通行证换新的了！新号 C87654321", "C87654321"],
    ["I renewed my passport. The new number is K83726154.", "K83726154"],
  ] as const)("masks %j", ([text, number], { expect }) => {
    expect(found(text)).toEqual([number]);
    expect(maskSensitiveData(text)).toBe(text.replace(number, PERSONAL_DATA_MASK));
  });

  // The same shapes without the document's name, and the document's name without a number.
  it.for([
    "航班号 CA1234 明早八点",
    "型号 E12345678 的配件还有吗",
    "护照下周才能办好",
    "护照有效期还剩6个月",
    "港澳通行证签注 G 类",
    "passport photo size is 33x48mm",
    "订单 A123456 已发货",
    "护照有效期到 20300512",
    "签证费 1080 元，等 10 个工作日",
    "护照号是9位的，字母开头",
    // A later number of something else.
    "护照办好了。航班号是 CA1234",
    "护照下周到。订单号 A1234567 已付款",
    "签证过了！我的是 10 年多次",
    "护照带了吗？我的房间号是 8012",
    "护照办好了，我的QQ号是 12345678 加我",
    "护照在我这。单号 SF1234567890 明天到",
  ])("leaves %j alone", (text, { expect }) => {
    expect(found(text)).toEqual([]);
    expect(maskSensitiveData(text)).toBe(text);
  });
});
