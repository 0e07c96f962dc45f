// Memory items kept before a detector read their wording (src/domain/memory/held-credentials.ts):
// found as an admin's text is read, and shown to the owner with the value masked, or not at all.
import { credentialErasure, heldCredentials, heldTexts } from "@src/domain/memory/held-credentials";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { memoryItem } from "../../fakes/in-memory-memory";

const item = (id: string, scope: string, text: string) =>
  memoryItem(scope, text, { nodeId: id, kind: "fact" });

describe("memory items that hold a credential as today's detectors read it", () => {
  it("finds values in Chinese words, values of letters only a reader reads, and what the rules read", ({
    expect,
  }) => {
    const held = heldCredentials([
      item("m2", "person:P1", "记住：压缩包打开要输 酸辣土豆丝 别外传"),
      item("m3", "chat:qq:private:U1", "班级网盘我设的是 Bj_2019cls 大家别乱删"),
      item("m4", "global:", "群里的 wifi 密码是 coffee4all"),
      item("m5", "chat:qq:group:G1", "我们群的名字改成 摸鱼小分队 了"),
      item("m6", "person:P1", "我喜欢吃饺子"),
    ]);
    expect(held.map((h) => h.nodeId)).toEqual(["m2", "m3", "m4"]);
    expect(held[0]).toEqual({
      nodeId: "m2",
      scope: "person:P1",
      kind: "fact",
      status: "active",
      masked: `记住：压缩包打开要输 ${CREDENTIAL_MASK} 别外传`,
    });
    expect(held.map((h) => h.scope)).toEqual(["person:P1", "chat:qq:private:U1", "global"]);
    expect(JSON.stringify(held)).not.toMatch(/酸辣土豆丝|Bj_2019cls|coffee4all/);
  });

  it("shows no text of an item that says what a password is when no detector reads its value", ({
    expect,
  }) => {
    const [held] = heldCredentials([item("m7", "person:P1", "用户家的wifi密码是作业写完了吗老铁")]);
    expect(held).toMatchObject({ nodeId: "m7", masked: null });
    expect(JSON.stringify(held)).not.toContain("作业写完了吗");
  });

  it("reads chat summaries and dreaming candidates as memory, and an erasure takes them and items alike", ({
    expect,
  }) => {
    const summaries = [
      {
        nodeId: "s1",
        scope: "chat:qq:group:G1",
        status: "active",
        text: "群里的 wifi 密码是 coffee4all，大家记一下",
      },
      { nodeId: "s2", scope: "chat:qq:group:G1", status: "active", text: "大家约了周六去爬山" },
    ];
    expect(heldTexts("summary", summaries)).toEqual([
      {
        nodeId: "s1",
        scope: "chat:qq:group:G1",
        kind: "summary",
        status: "active",
        masked: `群里的 wifi 密码是 ${CREDENTIAL_MASK}，大家记一下`,
      },
    ]);
    const candidate = {
      nodeId: "candidate:7",
      scope: "person:P1",
      status: "rejected",
      text: "小王说压缩包打开要输 酸辣土豆丝 别外传",
    };
    expect(heldTexts("candidate", [candidate])).toEqual([
      {
        nodeId: "candidate:7",
        scope: "person:P1",
        kind: "candidate",
        status: "rejected",
        masked: `小王说压缩包打开要输 ${CREDENTIAL_MASK} 别外传`,
      },
    ]);
    const items = [...summaries, candidate, item("m4", "global:", "群里的 wifi 密码是 coffee4all")];
    expect(credentialErasure(["s1", "m4", "candidate:7"], items)).toEqual({
      ok: true,
      value: ["s1", "m4", "candidate:7"],
    });
    expect(credentialErasure(["s1", "s2", "s9"], items)).toEqual({
      ok: false,
      error: { notFound: ["s9"], notHeld: ["s2"] },
    });
  });
});
