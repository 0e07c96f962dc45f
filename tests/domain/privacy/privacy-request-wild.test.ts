// Group requests as people type them, written blind by a writer who saw neither the rules nor
// the corpus (tests/fixtures/privacy/requests-wild.jsonl): dialects, slang, typos, tags, the bot
// addressed. Each family that reads them must also leave ordinary talk alone. The trained reader
// (request-reader.ts) learned from these lines, so they measure the phrase rules alone.

import { findPrivacyRequests } from "@src/domain/privacy/privacy-request";
import { describe, it } from "vitest";
import { WILD_REQUESTS as LINES } from "../../support/privacy-requests";

const asks = (t: string) => findPrivacyRequests(t).length > 0;

describe("privacy requests written blind, in the words of QQ groups", () => {
  it("reads nearly every request of every language, and few near misses", ({ expect }) => {
    const requests = LINES.filter((l) => l.label === "request");
    const misses = LINES.filter((l) => l.label === "none");
    expect(requests.length).toBeGreaterThanOrEqual(200);
    expect(requests.filter((l) => !asks(l.text)).length).toBeLessThanOrEqual(5);
    expect(misses.filter((l) => asks(l.text)).length).toBeLessThanOrEqual(5);
    for (const lang of ["yue", "dialect", "en", "zh-Hant"]) {
      const some = requests.filter((l) => l.lang === lang);
      expect(some.length).toBeGreaterThan(0);
      expect(some.filter((l) => !asks(l.text)).length, lang).toBeLessThanOrEqual(1);
    }
  });

  it.for([
    // Cantonese and Hokkien function words, read as Mandarin
    "唔好话俾人知呀，我同佢分咗手",
    "咪同人讲啊，我冇咗份工",
    "拜托母汤讲出去，我被当了",
    "你们麦共别人讲喔",
    // internet and northern forms of "don't", and a typo of 外传
    "憋告诉别人哈 我挂科了",
    "甭往外说，我俩黄了",
    "这事别外转啊",
    // a tag that asks the listener to agree is no question about privacy
    "这个别外传啊ok? 我要走了",
    "保密好吗？我怀孕了",
    // the words stay in this group
    "仅限本群哈，公司要搬了",
    "阅后即焚：我要跳槽了",
    "what i say next stays in the group chat",
    "keep your lips sealed: we're moving",
    // the bot, or anyone, should keep none of it
    "机器人别记这个，我刚才在气头上",
    "bot don't remember this pls",
    "上面那些你们都没看到哈",
    // a zipped mouth, or a shush
    "🤐 我要转岗了",
    "帮我守密，我在准备考公",
    // the threat to whoever spreads it, and words that hold only here
    "谁敢截图发出去谁就退群",
    "出了这个群我可不认账啊",
    // Shanghainese
    "覅告诉别人，阿拉屋里厢出事体了",
    // only here, only you; a place named; a plea put as a question; what it would cost
    "这话也就在咱们班群说说，我妈要再婚了",
    "千万别在年级群里提，我转学了",
    "你们不会到处说吧？我被退学了",
    "要是让我老婆知道我就完了，私房钱在鞋盒里",
    "你们就当不知道，我在面试别家",
    // other verbs of telling, and English as it is texted
    "先别走漏风声，我要调岗了",
    "出了群谁说谁是小狗",
    "dont forward this pls, im pregnant",
    // words unsaid, pointed at; listeners asked to forget; the bot asked to keep no copy
    "刚才那几句当我没讲",
    "看完请集体失忆",
    "我是不是说多了 你们都给我忘掉",
    "机器人 这条别存档",
    "bot dont save 这个",
    // a threat or a condition, to people or to the bot
    "谁要是敢发到家长群，我跟他没完",
    "你要是敢截图，我就拉黑你",
    "if any of this gets out im done",
    // where not to say it, whom not to pass it to, named as people type them
    "别外头乱说啊",
    "千万不要把这事传给我同事",
    "咪同阿May讲啊",
    "bie wai chuan ha",
    "你们总不至于往外说吧",
    // said only here, an idiom for "not for outsiders", and keeping one's mouth shut
    "只在这个群说说：老板昨天在会上被他老婆打电话骂哭了",
    "这话我只在这说，我觉得我们组长能力不行",
    "仅在本群讲讲，我下个月要跳槽了",
    "我又胖了十斤😭 不足为外人道也",
    "我有私房钱的事我老婆不知道，群里的都给我捂住了啊😂",
    "我中了个小奖，嘴上把个门啊",
    "都把嘴闭紧点，我跟她分手了",
  ])("reads %j as a request", (said, { expect }) => {
    expect(asks(said)).toBe(true);
  });

  it.for([
    "老王让我们别外传，他要结婚了",
    "你会保密吗？",
    "It's easy to get lost and forget that.",
    "我就在这里等你",
    "大家都没看到他吗",
    "别记错时间，明天八点",
    "不要对着镜子",
    "出去别乱跑",
    "秘密花园那首歌真好听",
    "I don't remember this song at all",
    "佢话唔好同人讲，不过我觉得冇所谓",
    "我会不会在群里说错话啊？",
    "你们不会到现在还没吃饭吧",
    "他这个人特别爱张扬",
    "my lips are sealed, don't worry",
    "阅后即焚这个功能有没有人用过",
    "这笔别记在我名下",
    "she told me to keep it a secret lol",
    "只有你们知道我有多累",
    "算了当我没说",
    "这书我看过就忘",
    "他说 别告诉别人",
    // a question word or tag on its own, a space away, still asks
    "为什么 不能告诉别人",
    "别告诉别人 是吗",
    "为啥要保密 别外传是什么意思",
    "他捂住耳朵不听",
    "这家店只在周末营业",
    "我只在这个群发过红包",
    "嘴上说不要身体很诚实",
  ])("leaves %j alone", (said, { expect }) => {
    expect(asks(said)).toBe(false);
  });
});
