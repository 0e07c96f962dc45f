/**
 * Credentials are never stored anywhere (docs/invariants.md#credentials-are-never-stored-in-memory),
 * and the keys of the platforms people use are credentials: a QQ image's link carries the `rkey`
 * that downloads it, and people paste their Bilibili, Baidu or QQ login cookies to ask about a
 * script (docs/decisions/0690-platform-login-cookies.md). After each path is driven through the real
 * webhooks and chat objects, every D1 table and every chat object's storage is read whole, and no
 * key is in any of them.
 *
 * Own file: it changes the stored settings (identity enabled, dreaming after two turns), which
 * every test of a file shares.
 */
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { beforeAll, describe, it } from "vitest";
import { enableIdentityAndDreaming, logged, postOneBotGroup, say } from "../support/credential-paths";
import { uid } from "../support/memory";
import { atBot, SELF, text } from "../support/onebot-events";
import { c2cBody, qqMessageBody } from "../support/qq-events";
import { settled, storedAnywhere } from "../support/stored-anywhere";

beforeAll(enableIdentityAndDreaming);

/** An image link as QQ serves it: the file id names the picture, the rkey opens it. */
const imageLink = (rkey: string) =>
  `https://multimedia.nt.qq.com.cn/download?appid=1407&fileid=EhRmYWtlZmlsZWlk&rkey=${rkey}&spec=0`;

describe("the keys of QQ's links and of platforms' logins are stored nowhere", () => {
  it("a QQ image's rkey, and login cookies pasted or named in a private chat", { timeout: 90_000 }, async ({
    expect,
  }) => {
    const rkey = "CAQSKAB6JWENi5LMtWVWVxS2RfZdDTI4Qa_Vjy9c0b2Jb4v8kHwQ6rI";
    const sessdata = "7e2c9d1a%2C1767225600%2Cf3b8e*c2";
    const biliJct = "5d41402abc4b2a76b9719d911017c592";
    const skey = "@Rt5yUi8oPq";
    const bduss = "VkZmJ5VnF3TUxPRnZ0cHlUb1B3bVhSdW1kY2lzaFN5UVdO";
    const user = `UK${uid()}`;
    const chatKey = `qq:private:${user}`;
    const image = qqMessageBody("C2C_MESSAGE_CREATE", {
      content: "看看这张图",
      timestamp: new Date().toISOString(),
      author: { id: user, user_openid: user },
      attachments: [{ content_type: "image/jpeg", filename: "shot.jpg", url: imageLink(rkey) }],
    });
    await say(image, chatKey);
    await say(
      c2cBody({ user, text: `B站下载脚本报错 我填的 SESSDATA=${sessdata}; bili_jct=${biliJct}` }),
      chatKey,
    );
    await say(c2cBody({ user, text: `机器人配置里 skey 填 ${skey} 对吗` }), chatKey);
    await say(c2cBody({ user, text: `百度网盘那个 BDUSS 是 ${bduss} 过期了吗` }), chatKey);

    await settled(chatKey, { dreamed: true });
    // The paths ran: each message is in the log, and each of them is masked.
    const rows = await logged(chatKey, 4);
    expect(rows.filter((r) => r.includes(CREDENTIAL_MASK))).toHaveLength(3);
    expect(await storedAnywhere([rkey, "Qa_Vjy9c0b2Jb4v8", sessdata, biliJct, skey, bduss])).toEqual([]);
  });

  it("a OneBot image segment's link and its CQ code", { timeout: 60_000 }, async ({ expect }) => {
    const rkey = "CAQSKNq7Xw3Lm9Pz2Ys8Rv1Tu4Ok6Jh5Gf0Dc-Ba_Ea9Hd2Lk7Mn";
    const link = imageLink(rkey);
    const cq = link.replaceAll("&", "&amp;");
    const sent = await postOneBotGroup(
      {
        segments: [atBot, text(" 这张图"), { type: "image", data: { file: "abc.image", url: link } }],
        rawMessage: `[CQ:at,qq=${SELF}] 这张图[CQ:image,file=abc.image,url=${cq}]`,
      },
      310_000_000,
    );
    expect(sent.status).toBe(204);
    await sent.turnDone();
    await settled(sent.chatKey);
    expect(await storedAnywhere([rkey, "Nq7Xw3Lm9Pz2Ys8R"])).toEqual([]);
  });
});
