// A secret told of in one message and sent bare in a later one by the same person ("路由器后台我
//重新设了", then "Rt_honghu88"): docs/decisions/1060-a-secret-told-of-before-it-is-sent.md.
// The wordings here were written for this test, not taken from the sets the rule was made on.
import { applyCredentialCues, type CredentialCues } from "@src/domain/privacy/announced-credential";
import { tellsOfANewSecret } from "@src/domain/privacy/credential-told-change";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { messageEvent } from "../../fakes/inbound";

const T = 1_700_000_000_000;

/** The texts as the chat stores them, each message a second after the last. */
function stored(lines: readonly (readonly [string, string])[]): string[] {
  let cues: CredentialCues = {};
  return lines.map(([sender, text], i) => {
    const out = applyCredentialCues(messageEvent({ chat: "qq:group:G1", sender, text }), cues, T + i * 1000);
    cues = out.cues;
    return out.event.message?.text ?? "";
  });
}

describe("a secret told of in one message and sent bare in a later one", () => {
  it("reads what tells of a new secret, and not its name, look, a question, a negation or a value given", ({
    expect,
  }) => {
    const tells =
      "我把老家路由器的后台重新设了|平板的锁屏我换了，小孩老偷玩|公司邮箱的登录刚被强制重置了|那个资料压缩包我加密了|家里的wifi我改过了|保险箱的开箱数字我改了|那個資料壓縮包我加密了|路由器後台我重新設了";
    const not =
      "我把b站昵称改了|wifi 名字我改了 叫 home5g|密码改了吗？|我还没改登录的东西|账号密码忘了怎么办|手机我换了 换成小米了|我换了个头像|锁屏壁纸换了一张猫的|我把路由器密码改成了 Hk7731pp|鎖屏桌布換了|密碼改了嗎";
    for (const said of tells.split("|")) expect(tellsOfANewSecret(said), said).toBe(true);
    for (const said of not.split("|")) expect(tellsOfANewSecret(said), said).toBe(false);
  });

  it("masks the same person's bare value that follows, after others have spoken", ({ expect }) => {
    expect(
      stored([
        ["U1", "平板的锁屏我换了，小孩老偷玩"],
        ["U2", "换成啥了"],
        ["U3", "哈哈哈"],
        ["U1", "Tb@2024kid"],
      ]),
    ).toEqual(["平板的锁屏我换了，小孩老偷玩", "换成啥了", "哈哈哈", CREDENTIAL_MASK]);
  });

  it("takes only the teller's next message, and only a bare value", ({ expect }) => {
    // Another member's token is not the teller's; a sentence of the teller's ends the cue.
    expect(
      stored([
        ["U1", "家里的wifi我改过了"],
        ["U2", "ok"],
        ["U1", "晚上吃火锅吧"],
        ["U1", "Wf_0809home"],
      ]),
    ).toEqual(["家里的wifi我改过了", "ok", "晚上吃火锅吧", "Wf_0809home"]);
    expect(
      stored([
        ["U1", "家里的wifi我改过了"],
        ["U2", "Wf_0809home"],
      ]),
    ).toEqual(["家里的wifi我改过了", "Wf_0809home"]);
  });

  it("reads a telling in traditional characters, and the teller's value after it", ({ expect }) => {
    expect(
      stored([
        ["U1", "平板的鎖屏我換了，小孩老偷玩"],
        ["U2", "換成啥"],
        ["U1", "Tb@2024kid"],
      ]),
    ).toEqual(["平板的鎖屏我換了，小孩老偷玩", "換成啥", CREDENTIAL_MASK]);
  });

  it("leaves the teller's laugh or cheer after a telling alone", ({ expect }) => {
    for (const chatter of ["hhh", "666", "2333", "lol", "haha", "yyds"])
      expect(
        stored([
          ["U1", "那个资料压缩包我加密了"],
          ["U1", chatter],
        ])[1],
        chatter,
      ).toBe(chatter);
  });

  it("lets the cue lapse after the window", ({ expect }) => {
    let cues: CredentialCues = {};
    cues = applyCredentialCues(
      messageEvent({ chat: "qq:group:G1", sender: "U1", text: "那个资料压缩包我加密了" }),
      cues,
      T,
    ).cues;
    const late = applyCredentialCues(
      messageEvent({ chat: "qq:group:G1", sender: "U1", text: "zip_Ab1234" }),
      cues,
      T + 11 * 60_000,
    );
    expect(late.event.message?.text).toBe("zip_Ab1234");
  });
});
