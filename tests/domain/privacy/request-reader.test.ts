// The trained reader of privacy requests (src/domain/privacy/request-reader.ts): it reads, as a
// whole message, requests in wordings no phrase rule was written for, and leaves ordinary talk,
// questions about privacy and reported requests alone. Its measured rates are in
// `npm run eval -- privacy-wording`; these lines pin what it is for.
import { privacyMarkOf } from "@src/domain/history/privacy-mark";
import {
  findPrivacyRequests,
  isBarePrivacyRequest,
  privacyRequest,
  withoutPrivacyRequests,
} from "@src/domain/privacy/privacy-request";
import { readsAsRequest, requestGrams } from "@src/domain/privacy/request-reader";
import { describe, it } from "vitest";

/** Requests, written for this test, in wordings none of the phrase rules reads. */
const UNRULED_REQUESTS = [
  "这事儿就到此为止啊，出了这个门谁也不知道",
  "求求了别让这事传到我爸妈耳朵里",
  "keep this between the four of us ok",
];

describe("the trained reader of privacy requests", () => {
  it.for(UNRULED_REQUESTS)("reads %j, which no phrase rule reads, as a request", (said, { expect }) => {
    expect(findPrivacyRequests(said)).toEqual([]);
    expect(readsAsRequest(said)).toBe(true);
  });

  it.for([
    "别忘了明天交作业",
    "告诉你们一个好消息，我考上了！",
    "群里谁有充电宝借我一下",
    "截图发群里了你们看看",
    "你会保密吗？",
    "我们公司保密协议签了三年",
    "我妈让我别告诉别人，但我憋不住了",
    "这个秘密基地关卡怎么过",
    "忘了带钥匙，谁在宿舍",
    "",
  ])("leaves %j alone", (said, { expect }) => {
    expect(readsAsRequest(said)).toBe(false);
  });

  it("asks for `private` when only it reads the request, and the message keeps its words and marks its speaker's window", ({
    expect,
  }) => {
    const [said] = UNRULED_REQUESTS as [string];
    expect(privacyRequest(said)).toBe("private");
    // No span to cut: the reader reads the message whole, so what it is about stays in it.
    expect(withoutPrivacyRequests(said)).toBe(said);
    expect(isBarePrivacyRequest(said)).toBe(false);
    expect(privacyMarkOf(said)).toBe(3);
  });

  it("does not overrule a permission in the person's own words", ({ expect }) => {
    // A line the reader, by its characters, takes for a request.
    const said = "我被裁了，这个不用保密了，可以告诉别人";
    expect(readsAsRequest(said)).toBe(true);
    expect(privacyRequest(said)).toBeNull();
  });

  it("reads what the phrase rules read: the same text, so a traditional or quoted request reads alike", ({
    expect,
  }) => {
    expect(requestGrams("這事兒別讓我爸媽知道")).toEqual(requestGrams("这事儿别让我爸妈知道"));
    // Someone else's request, quoted, is blanked before either reader sees it.
    expect(requestGrams("他说「出了这个门谁也不知道」")).toEqual(
      requestGrams("他说「一二三四五六七八九十一」"),
    );
  });
});
