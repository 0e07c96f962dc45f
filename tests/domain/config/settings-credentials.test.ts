import { replaceStoredLayer, setStoredValue, unsetStoredValue } from "@src/domain/config/settings-edit";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { settingPath } from "../../fakes/setting-path";

const HF = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";
const GHP = "ghp_0123456789abcdefghijABCDEFGHIJ";
const REASON = "holds a credential; credentials belong in secrets, not settings";

describe("settings keep no credential", () => {
  it.for([
    ["a persona with a token", { turn: { persona: `部署用 ${HF}` } }, "turn.persona"],
    [
      "a password said in a persona",
      { turn: { persona: "你是小助手。服务器密码是 Xy12ab34，别告诉别人" } },
      "turn.persona",
    ],
    [
      "a value in Chinese words only the reader of such values reads, in a persona",
      { turn: { persona: "你是群助手，有人问群文件怎么解压，就告诉他解压就用 黄焖鸡米饭 这五个字" } },
      "turn.persona",
    ],
    ["a key in an array", { knowledge: { collections: ["notes", GHP] } }, "knowledge.collections.1"],
  ] as const)(
    "refuses a document with %s as a whole, naming the field",
    ([, document, field], { expect }) => {
      const edit = replaceStoredLayer({ var: {}, stored: null }, document);
      expect(edit).toEqual({ ok: false, error: { kind: "invalid", field, reason: REASON } });
    },
  );

  it("names a key that holds a credential without repeating it", ({ expect }) => {
    const document = { knowledge: { chatCollections: { [`qq:group:${GHP}`]: ["notes"] } } };
    const edit = replaceStoredLayer({ var: {}, stored: null }, document);
    expect(edit).toEqual({
      ok: false,
      error: {
        kind: "invalid",
        field: `knowledge.chatCollections.qq:group:${CREDENTIAL_MASK}`,
        reason: REASON,
      },
    });
  });

  it("refuses a config_change set of a credential, leaving the stored layer as it was", ({ expect }) => {
    const layers = { var: {}, stored: { retention: { groupDays: 30 } } };
    const edit = setStoredValue(layers, settingPath("turn.persona"), `部署用 ${HF}`);
    expect(edit).toEqual({ ok: false, error: { kind: "invalid", field: "turn.persona", reason: REASON } });
    expect(layers.stored).toEqual({ retention: { groupDays: 30 } });
  });

  it("lets an earlier stored credential be removed, and names it when another path is set", ({ expect }) => {
    const layers = { var: {}, stored: { turn: { persona: `部署用 ${HF}` }, retention: { groupDays: 30 } } };
    const other = setStoredValue(layers, settingPath("retention.groupDays"), 60);
    expect(other).toMatchObject({ ok: false, error: { field: "turn.persona", reason: REASON } });
    const removed = unsetStoredValue(layers, settingPath("turn.persona"));
    expect(removed.ok && removed.value.stored).toEqual({ retention: { groupDays: 30 } });
  });

  it("saves settings that talk about secrets without holding one", ({ expect }) => {
    const document = {
      turn: { persona: "你是群里的小助手。有人发密码或 API key 时，提醒他们不要在聊天里发。" },
      follow: { groups: ["qq:group:9A1B2C3D4E5F60718293A4B5C6D7E8F9"] },
      knowledge: { chatCollections: { "qq:group:9A1B2C3D4E5F60718293A4B5C6D7E8F9": ["notes"] } },
    };
    const edit = replaceStoredLayer({ var: {}, stored: null }, document);
    expect(edit.ok && edit.value.stored).toEqual(document);
  });

  it("still refuses a __proto__ key", ({ expect }) => {
    const edit = replaceStoredLayer({ var: {}, stored: null }, JSON.parse('{"__proto__":{}}'));
    expect(edit).toMatchObject({ ok: false, error: { field: "__proto__" } });
  });
});
