/**
 * /whoami and /claim are new surfaces (docs/identity.md#the-first-admin). They try to break:
 * /whoami in a group tells nothing about another person, another account of the sender or a
 * private chat; a claim code is a credential — masked before anything stores it, never echoed,
 * never audited, burnt when said in a group; claiming is refused once an admin exists; bad
 * input changes nothing.
 */

import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import { DEFAULT_SETTINGS, type Settings } from "@src/domain/config/settings";
import { claimDigest, formatClaimCode } from "@src/domain/identity/admin-claim";
import { maskInboundEvent } from "@src/domain/inbound/mask-inbound-event";
import { containsCredential } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { InMemoryAdminClaims } from "../fakes/in-memory-admin-claims";
import { InMemorySettingsAdmin } from "../fakes/in-memory-settings-admin";
import { messageEvent } from "../fakes/inbound";
import { TEST_NOW, turnPorts } from "../fakes/turn-ports";
import { turnContext } from "../support/turn-context";

const CODE = formatClaimCode(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]));
const OTHER_CODE = formatClaimCode(new Uint8Array(15).fill(200));
const GROUP = "qq:group:G_ROOM";
const OWNER_PRIVATE = "qq:private:OWNERC2C";

async function turn(input: {
  chat: string;
  text: string;
  sender?: string;
  settings?: Settings;
  admin?: InMemorySettingsAdmin;
  claims?: InMemoryAdminClaims;
  raw?: unknown;
}) {
  const event = maskInboundEvent({
    ...messageEvent({ chat: input.chat, text: input.text, sender: input.sender ?? "OWNERC2C" }),
    raw: input.raw ?? { content: input.text },
  });
  const admin = input.admin ?? new InMemorySettingsAdmin();
  const settings = input.settings ?? DEFAULT_SETTINGS;
  const result = await runTurn(
    turnContext(event, {
      text: event.message?.text ?? "",
      settings,
      now: TEST_NOW,
    }),
    turnPorts({ settingsAdmin: admin, ...(input.claims ? { claims: input.claims } : {}) }),
    defaultTurnRegistry(),
  );
  if (!result.ok) throw new Error("turn failed");
  return { event, reply: result.value.replies.join("\n"), audit: result.value.audit, admin };
}

async function issued(code = CODE, expiresAt = TEST_NOW + 600_000) {
  const claims = new InMemoryAdminClaims();
  await claims.issue({ digest: claimDigest(code), at: TEST_NOW - 1000, expiresAt });
  return claims;
}

describe("/whoami", () => {
  const identity: Settings = {
    ...DEFAULT_SETTINGS,
    identity: {
      enabled: true,
      admins: ["qq:user:SOMEONE_ELSE"],
      chatDomains: { club: [GROUP, "qq:group:SIBLING"] },
      people: [
        {
          id: "alice-real-name",
          displayName: "爱丽丝",
          accounts: ["qq:user:GROUPMEMBER", "qq:user:ALICE_C2C"],
        },
      ],
    },
  };

  it("in a group names the sender's own account and the group, and nothing about anyone or anything else", async ({
    expect,
  }) => {
    for (const text of [
      "/whoami",
      "／whoami",
      "/WHOAMI 我是谁？",
      "/whoami qq:user:SOMEONE_ELSE",
      "/whoami ALICE_C2C",
    ]) {
      const { reply } = await turn({ chat: GROUP, text: text, sender: "GROUPMEMBER", settings: identity });
      expect(reply).toContain("qq:user:GROUPMEMBER");
      expect(reply).toContain(GROUP);
      // Not the sender's other (private) account, not the person, not another member, not a sibling chat.
      for (const secret of ["ALICE_C2C", "alice-real-name", "爱丽丝", "SOMEONE_ELSE", "SIBLING", "private"])
        expect(reply).not.toContain(secret);
      expect(reply).not.toContain("管理员）");
    }
  });

  it("in a private chat names only the sender's account", async ({ expect }) => {
    const { reply } = await turn({
      chat: "qq:private:ALICE_C2C",
      text: "/whoami",
      sender: "ALICE_C2C",
      settings: identity,
    });
    expect(reply).toContain("qq:user:ALICE_C2C");
    for (const secret of ["GROUPMEMBER", "alice-real-name", "G_ROOM", "SOMEONE_ELSE"])
      expect(reply).not.toContain(secret);
  });
});

describe("/claim", () => {
  it("masks the code before anything stores it: text and raw payload; only its digest goes on", async ({
    expect,
  }) => {
    for (const text of [`/claim ${CODE}`, `／claim  ${CODE.toUpperCase()}`, `/claim ${CODE} 谢谢`]) {
      const event = maskInboundEvent({
        ...messageEvent({ chat: OWNER_PRIVATE, text, sender: "OWNERC2C" }),
        raw: { d: { content: text, nested: [{ data: { text } }] } },
      });
      expect(JSON.stringify(event).toLowerCase()).not.toContain(CODE);
      expect(event.claimDigest).toBe(claimDigest(CODE));
    }
    // Said outside /claim, in any chat, the code is still a credential.
    expect(containsCredential(`口令是 ${CODE}`)).toBe(true);
    expect(containsCredential(CODE.slice(0, 14))).toBe(true);
    const plain = maskInboundEvent(messageEvent({ chat: GROUP, text: `大家看 ${CODE}` }));
    expect(JSON.stringify(plain)).not.toContain(CODE);
    expect(plain.claimDigest).toBeUndefined();
  });

  it("drops a digest that came in with the event: only the masking point sets it", async ({ expect }) => {
    const forged = maskInboundEvent({
      ...messageEvent({ chat: OWNER_PRIVATE, text: "/claim" }),
      claimDigest: claimDigest(CODE),
    });
    expect(forged.claimDigest).toBeUndefined();
  });

  it("in a group is refused, never echoes the code, and burns it", async ({ expect }) => {
    const claims = await issued();
    const { reply, audit, admin } = await turn({ chat: GROUP, text: `/claim ${CODE}`, claims });
    expect(reply).toContain("私聊");
    expect(reply.toLowerCase()).not.toContain(CODE);
    expect(admin.saves).toEqual([]);
    expect(claims.rows[0]?.revokedAt).not.toBeNull();
    expect(audit).toMatchObject([
      { action: "admins.claim", outcome: "refused", detail: { cause: "shared_chat_revoked" } },
    ]);
    // The owner then tries it privately: the burnt code makes nobody an admin.
    const later = await turn({ chat: OWNER_PRIVATE, text: `/claim ${CODE}`, claims, admin });
    expect(later.reply).toContain("作废");
    expect(admin.saves).toEqual([]);
  });

  it("in a private chat makes the sender the first admin, once; audited without the code", async ({
    expect,
  }) => {
    const claims = await issued();
    const { reply, audit, admin } = await turn({ chat: OWNER_PRIVATE, text: `/claim ${CODE}`, claims });
    expect(reply).toContain("✅");
    expect(admin.stored).toMatchObject({ identity: { enabled: true, admins: ["qq:user:OWNERC2C"] } });
    expect(admin.saves[0]?.audit).toMatchObject({
      action: "config.set",
      actor: "qq:user:OWNERC2C",
      target: "identity.admins",
    });
    const everything = JSON.stringify([reply, audit, admin.saves]).toLowerCase();
    expect(everything).not.toContain(CODE);
    expect(everything).not.toContain(claimDigest(CODE));
    // A second claim, even with a fresh code, is refused: an admin exists now.
    await claims.issue({ digest: claimDigest(OTHER_CODE), at: TEST_NOW, expiresAt: TEST_NOW + 600_000 });
    const second = await turn({
      chat: "qq:private:INTRUDER",
      sender: "INTRUDER",
      text: `/claim ${OTHER_CODE}`,
      claims,
      admin,
    });
    expect(second.reply).toContain("已经有管理员");
    expect(admin.saves).toHaveLength(1);
    expect(second.audit).toMatchObject([{ outcome: "refused", detail: { cause: "admin-exists" } }]);
  });

  it("refuses a wrong, expired, reused or missing code and changes nothing", async ({ expect }) => {
    const expired = await issued(CODE, TEST_NOW - 1);
    const cases: [string, InMemoryAdminClaims, string][] = [
      [`/claim ${OTHER_CODE}`, await issued(), "口令不对"],
      [`/claim ${CODE}`, expired, "过期"],
      ["/claim", await issued(), "用法"],
      ["/claim 123456", await issued(), "用法"],
      [`/claim ${CODE.slice(0, 10)}`, await issued(), "用法"],
    ];
    for (const [text, claims, expected] of cases) {
      const { reply, admin } = await turn({ chat: OWNER_PRIVATE, text, claims });
      expect(reply).toContain(expected);
      expect(admin.saves).toEqual([]);
      expect(admin.stored).toBeNull();
    }
    const claims = await issued();
    await claims.redeem({ digest: claimDigest(CODE), at: TEST_NOW, account: "qq:user:X" });
    const { reply, admin } = await turn({ chat: OWNER_PRIVATE, text: `/claim ${CODE}`, claims });
    expect(reply).toContain("用过");
    expect(admin.saves).toEqual([]);
  });

  it("is refused when AKASHA_CONFIG already declares an admin", async ({ expect }) => {
    const claims = await issued();
    const admin = new InMemorySettingsAdmin({
      var: { identity: { enabled: true, admins: ["qq:user:DEPLOYER"] } },
    });
    const { reply } = await turn({ chat: OWNER_PRIVATE, text: `/claim ${CODE}`, claims, admin });
    expect(reply).toContain("已经有管理员");
    expect(claims.rows[0]?.usedAt).toBeNull();
  });
});
