import { maskAuditCredentials } from "@src/domain/kernel/audit";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";

const GHP = "ghp_0123456789abcdefghijABCDEFGHIJ";
const HF = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";
const XOXB = "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx";

describe("audit records keep no credential", () => {
  it("masks the target and keeps its other words", ({ expect }) => {
    const record = maskAuditCredentials({ target: `llm.${GHP}`, detail: {} });
    expect(record.target).toBe(`llm.${CREDENTIAL_MASK}`);
  });

  it("masks every string of the detail, nested values and keys included", ({ expect }) => {
    const record = maskAuditCredentials({
      target: null,
      detail: {
        via: "tool",
        source: `notes ${XOXB}.md`,
        after: JSON.stringify(`部署用 ${HF}`),
        nested: { list: ["ok", `token ${GHP}`], [GHP]: 1 },
      },
    });
    expect(record.detail).toEqual({
      via: "tool",
      source: `notes ${CREDENTIAL_MASK}.md`,
      after: `"部署用 ${CREDENTIAL_MASK}"`,
      nested: { list: ["ok", `token ${CREDENTIAL_MASK}`], [CREDENTIAL_MASK]: 1 },
    });
    expect(JSON.stringify(record)).not.toMatch(/ghp_|hf_|xoxb-/);
  });

  it("changes nothing else: ids, kinds, numbers, flags and the other fields stay as they were", ({
    expect,
  }) => {
    const record = {
      dedupeKey: "qq:private:U1:E1:0:audit:0",
      at: 1,
      actor: "qq:user:U1",
      action: "kb.delete_document",
      chatKey: "qq:private:U1",
      target: "qq:group:9A1B2C3D4E5F60718293A4B5C6D7E8F9",
      detail: { outcome: "ok", removed: 3, found: true, reason: null, collection: "notes" },
    };
    expect(maskAuditCredentials(record)).toEqual(record);
  });

  it("keeps the random-looking ids this system mints: memory items, knowledge documents and nodes, owner plans", ({
    expect,
  }) => {
    const record = {
      target: "memory:m_09gi81ysyih2ft373vj8la",
      detail: {
        moves: [{ node: "m_23vpo2w1jnm22h1euwnemx", to: "global" }],
        document: "d_3f9a2b7c1d8e4a6b9c0d2e4f",
        node: "n_3f9a2b7c1d8e4a6b9c0d2e4f",
        plan: "plan-1712345678901-abcdef12",
      },
    };
    expect(maskAuditCredentials(record)).toEqual(record);
  });

  it("still masks a random key beside an id, or one longer than an id", ({ expect }) => {
    const KEY = "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0Ed";
    const record = maskAuditCredentials({
      target: `memory:m_09gi81ysyih2ft373vj8la ${KEY}`,
      detail: { node: `m_${KEY}` },
    });
    expect(record).toEqual({
      target: `memory:m_09gi81ysyih2ft373vj8la ${CREDENTIAL_MASK}`,
      detail: { node: CREDENTIAL_MASK },
    });
  });

  it("is idempotent: a masked record masks to itself", ({ expect }) => {
    const once = maskAuditCredentials({ target: `qq:user:${GHP}`, detail: { value: `key ${HF}` } });
    expect(maskAuditCredentials(once)).toEqual(once);
  });
});
