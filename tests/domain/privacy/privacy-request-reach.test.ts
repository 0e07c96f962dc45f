// Requests that name who must not hear, where the words must not go, or how far they may travel,
// in words the older families did not read (docs/decisions/0810-privacy-requests-who-where-how-far.md):
// dialect verbs of talking, kin and workplaces, a chat's own bounds, pinyin initials, the bot
// asked to forget. Wordings of our own, written for the families, beside near misses that share
// their words.

import { findPrivacyRequests } from "@src/domain/privacy/privacy-request";
import { describe, it } from "vitest";

const asks = (t: string) => findPrivacyRequests(t).length > 0;

const REQUESTS = [
  // verbs of talking in northern speech, and "not allowed" as the north says it
  "这事别跟我领导唠啊，我在偷偷找工作",
  "千万别出去跟人白话，我借了网贷",
  "你们可不兴往外说啊，我离婚了",
  "你们谁都不准出去讲，我被开除了",
  // kin and workplaces as the ones not to hear
  "不许告诉我表哥，他肯定去跟我妈说",
  "别往我们班群里说，我留级了",
  "我家里的事别往单位那边带",
  // only those who know now, or only this chat
  "自己人知道就行，我欠了网贷",
  "兄弟们心里有数就行 我要跑路了",
  "这话就搁咱群里唠唠，我要二婚了",
  "咱们宿舍群说说得了，我又挂科了",
  "以下内容不出群：我怀孕了",
  "别让这事离开这个群啊，我被劝退了",
  // pinyin initials, a secret kept a little while, and Taiwanese particles
  "这个bm，我要调岗了",
  "bwc啊 我被裁了",
  "先不公开，我俩领证了",
  "大家帮我保密一下齁，我在备孕",
  "你们替我保个密好不，我偷偷报了班",
  // the bot asked to forget, or to act as if it never heard
  "@机器人 你听完就忘，我明年要移民",
  "机器人就当我没跟你说过这事，我要辞职",
  // platforms and pictures
  "别转发朋友圈哈 我住院了",
  "别把我的照片截出去啊，丑死了",
  "这个别出现在任何地方，我在戒酒",
  "我不希望这件事出现在别的群里，我爸欠债了",
  // English and Cantonese
  "don't spill, i got fired",
  "just you guys know ok, im moving out",
  "帮我keep住先，我甩咗",
  "得我哋几个知就算啦，我要移民",
  "出面唔好提呀，我欠咗人钱",
  // asked again, and a mouth kept shut
  "别再传了，我已经够丢人了",
  "你们嘴都严实点，我要离职了",
];

const NEAR_MISSES = [
  "他唠叨了一下午，烦死了",
  "这有啥好保密的，全公司都知道",
  "我没有要你保密啦，想说就说",
  "今天公司公开了新产品",
  "先不说了我去吃饭",
  "bm是什么意思啊",
  "我在这个群说过很多次了",
  "就在这个群里发红包吧",
  "他从这个群离开了",
  "别转发朋友圈的谣言",
  "把照片发出来看看",
  "这事我表哥说可以",
  "keep going guys",
  "别再来了，上次吃坏肚子",
  "你的事我一定bwc，放心",
];

describe("privacy requests that say who, where and how far", () => {
  it.for(REQUESTS)("reads %j as a request", (said, { expect }) => {
    expect(asks(said)).toBe(true);
  });

  it("leaves the near misses that share their words", ({ expect }) => {
    expect(NEAR_MISSES.filter(asks)).toEqual([]);
  });
});
