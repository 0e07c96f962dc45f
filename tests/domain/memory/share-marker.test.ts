import { sharedStatement, shareRequested, withoutShareMarkers } from "@src/domain/memory/origin";
import { shareMarkerSpans } from "@src/domain/memory/share-marker";
import { describe, it } from "vitest";
import { SHARE_LINES } from "../../support/share-markers";

const nearMisses = SHARE_LINES.filter((l) => l.label === "none");
const shares = SHARE_LINES.filter((l) => l.label === "share");

describe("the share marker", () => {
  // A wrong "share" publishes a private matter: every near miss, dev and held, stays private.
  it.for(nearMisses.map((l) => [l.split, l.text] as const))(
    "[%s] is no permission: %s",
    ([, text], { expect }) => {
      expect(shareMarkerSpans(text)).toEqual([]);
      expect(shareRequested(text)).toBe(false);
    },
  );

  // A missed permission costs a /share; most are read, and the plain ones always are.
  it("reads most clear permissions of the corpus, and the plain ones every time", ({ expect }) => {
    expect(shares.length).toBeGreaterThanOrEqual(70);
    const read = shares.filter((l) => shareRequested(l.text)).length;
    expect(read / shares.length).toBeGreaterThanOrEqual(0.85);
    for (const text of [
      "我下个月结婚，可以告诉大家",
      "我换工作了，这个不用保密",
      "我考上研究生了！可以跟大家说",
      "我過敏了，可以告訴大家",
      "I got promoted, you can tell everyone",
    ])
      expect(shareRequested(text), text).toBe(true);
  });

  it("is cut from what is kept, with its filler words, and leaves the rest as written", ({ expect }) => {
    expect(withoutShareMarkers("我下个月结婚，可以告诉大家")).toBe("我下个月结婚");
    expect(withoutShareMarkers("我换工作了，这个不用保密哈！")).toBe("我换工作了");
    expect(withoutShareMarkers("可以告诉群里：我周末办婚礼")).toBe("我周末办婚礼");
    expect(withoutShareMarkers("I got promoted, you can tell everyone")).toBe("I got promoted");
  });

  // A permission covers what it follows, or what its colon introduces; a sentence said after it
  // is not under it, so the message is not shared at all.
  it.for([
    ["我升职了，可以告诉大家。另外我得了抑郁症", false],
    ["我升职了，可以告诉大家\n我老婆怀孕了", false],
    ["I got promoted, you can tell everyone. I'm also seeing a therapist", false],
    ["我升职了，可以告诉大家，哈哈😄", true],
    ["可以告诉大家：我要当爸爸了。预产期在三月", true],
    // What follows a permission must add nothing; opening the message, it covers its sentence.
    ["我驾照过了 群里随便说 然后我跟我爸吵架了 好烦", false],
    ["我升职了 群里随便说 不用保密 嘿嘿", true],
    ["跟大家说吧，我脱单了！", true],
    ["跟大家说吧，我脱单了！我还欠了十万块", false],
    // Telling already done, and sarcasm, permit nothing.
    ["我辞职了，跟他们说了", false],
    ["我们的合照，传到群里了", false],
    ["我被甩了 去群里说啊 让大家都来看笑话 呵呵", false],
    // A correction takes it back, and "I'll tell them myself" leaves the bot nothing to tell.
    ["群里说吧……不对，我自己说", false],
    ["我订婚了 跟大家说吧 等等 我亲自宣布", false],
    ["可以告诉群里，哦不，还是我自己来讲", false],
    ["我转正了，可以告诉大家，我自己发也行", false],
    ["you can tell everyone... wait, actually I'll tell them myself", false],
    ["I'm engaged, tell the group. Never mind, I'll announce it", false],
    ["you can post it in the group... nah scratch that, don't", false],
    ["I passed the bar exam, tell everyone. scratch that.", false],
    ["share it with the group — on second thought, don't", false],
    // A dare is no permission: "去啊", "有本事你去说啊".
    ["去啊 去群里说啊", false],
    ["有本事你去群里说啊", false],
    ["你去讲啊，去群里讲啊，看我理不理你", false],
    ["你去群里说啊 你说一个试试😡", false],
    ["群里讲啊 讲了我就退群", false],
    // Cantonese limits and negations.
    ["你可以同大家講……講我好靚仔 其他嘢唔好講哈哈", false],
    ["我升職喇 可以同大家講 但係人工就咪講啦", false],
    ["我拍拖喇，千祈唔好同群入面講", false],
  ] as const)("%s → shared %s", ([text, shared], { expect }) => {
    expect(shareRequested(text)).toBe(shared);
  });

  it("is never read in a message that also asks for privacy", ({ expect }) => {
    expect(shareRequested("可以告诉大家。这件事请保密")).toBe(false);
  });

  it("is not read in a message too long to check every clause after it, which `/share` still shares", ({
    expect,
  }) => {
    expect(shareRequested("我升职了，可以告诉大家")).toBe(true);
    const long = `${"今天天气不错 ".repeat(400)}我升职了，可以告诉大家`;
    expect(shareRequested(long)).toBe(false);
    // Bounded so: 100 kB of permissions alone costs no more than its first clauses.
    expect(shareMarkerSpans("可以告诉大家 ".repeat(20_000))).toEqual([]);
  });
});

// The permission covers what the marked message says, not whatever is written during its turn:
// a model (or a dream extractor citing that turn) cannot publish an earlier private matter.
describe("what a permission covers", () => {
  const MARKED = "我升职了，可以告诉大家";
  it.for([
    ["用户E4F4升职了", true],
    ["小明升职了", true],
    ["他告诉我：我升职了，可以告诉大家", true],
    ["用户升职了，还确诊了癌症", false],
    ["小明上周确诊了癌症", false],
    ["小明升职了，工资涨到3万", false],
    ["用户离婚了", false],
  ] as const)("from %s: %s", ([statement, covered], { expect }) => {
    expect(sharedStatement(MARKED, statement, "小明")).toBe(covered);
  });

  it("reads English words and numbers as the message has them", ({ expect }) => {
    const said = "I got promoted to level 5, you can tell everyone";
    expect(sharedStatement(said, "The user got promoted to level 5", null)).toBe(true);
    expect(sharedStatement(said, "The user got promoted to level 6", null)).toBe(false);
    expect(sharedStatement(said, "The user got promoted and is pregnant", null)).toBe(false);
  });

  it.for([
    ["小声说，我明天去做手术。我升职了 可以告诉大家", "用户明天去做手术", "用户升职了"],
    ["我上周确诊了糖尿病。我升职了，可以告诉大家", "用户确诊了糖尿病", "用户升职了"],
    ["我离婚了！我升职了。可以告诉大家", "用户离婚了", "用户升职了"],
    ["My wife left me. I got promoted, you can tell everyone", "The user wife left", "The user got promoted"],
  ] as const)(
    "in %s, covers its own sentence (or the one it follows), not an earlier one",
    ([said, earlier, own], { expect }) => {
      expect(sharedStatement(said, earlier, null)).toBe(false);
      expect(sharedStatement(said, own, null)).toBe(true);
    },
  );

  it("covers nothing when the message gives no permission", ({ expect }) => {
    expect(sharedStatement("我升职了", "用户升职了", null)).toBe(false);
    expect(sharedStatement("我升职了，能告诉大家就好了", "用户升职了", null)).toBe(false);
  });
});
