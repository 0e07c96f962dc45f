// Own file: it changes the stored settings (identity enabled), which every test of a file shares.

import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import type { ContextProvider } from "@src/domain/agent/context-provider";
import type { SenderIdentity } from "@src/domain/identity/sender-identity";
import { PRIVATE_BY_ORIGIN_RULE } from "@src/domain/memory/origin";
import { beforeAll, describe, it, vi } from "vitest";
import {
  auditRowsOnceThere,
  c2cBodyWithIdentity,
  groupBodyWithIdentity,
  linkRow,
  observationRows,
  uid,
} from "../support/identity";
import { declared, qqUsers, storeIdentity, uids } from "../support/identity-settings";
import { eventIdOf, postQq, turnDone } from "../support/qq-events";
import { eventually } from "../support/wait";

const [ADMIN_MEMBER, OWNER_C2C] = uids("ADMIN", "OWNERC2C");

beforeAll(() =>
  storeIdentity({ people: [declared("owner", "浅色", qqUsers(OWNER_C2C))], admins: qqUsers(ADMIN_MEMBER) }),
);

async function say(body: string, chatKey: string) {
  expect200(await postQq(body));
  const status = await turnDone(chatKey, eventIdOf(body));
  return status.replies.map((r) => r.text).join("\n");
}

function expect200(response: Response) {
  if (response.status !== 200) throw new Error(`webhook answered ${response.status}`);
}

/** Records the sender identity every turn hands to recall (where memory recall plugs in). */
function captureIdentities(): (SenderIdentity | null)[] {
  const seen: (SenderIdentity | null)[] = [];
  const real = chatObjectServices.create.bind(chatObjectServices);
  vi.spyOn(chatObjectServices, "create").mockImplementation((e) => {
    const deps = real(e);
    const recorder: ContextProvider = {
      name: "identity-recorder",
      async collect(ctx) {
        seen.push(ctx.identity);
        return null;
      },
    };
    return { ...deps, registry: { ...deps.registry, context: [...deps.registry.context, recorder] } };
  });
  return seen;
}

describe("/identity through the webhook", () => {
  it("refuses a non-admin with a clear reply and audits the attempt", async ({ expect }) => {
    const group = uid("G");
    const member = uid("M");
    const reply = await say(
      groupBodyWithIdentity({ group, member, text: `/identity link qq:user:${member} owner` }),
      `qq:group:${group}`,
    );
    expect(reply).toContain(`账号 qq:user:${member} 不在 identity.admins 中`);
    const audit = await auditRowsOnceThere(`qq:group:${group}`);
    expect(audit).toMatchObject([
      {
        actor: `qq:user:${member}`,
        action: "identity.link",
        target: `qq:user:${member}`,
        detail: { outcome: "refused", via: "command", cause: "not-admin" },
      },
    ]);
    expect(await linkRow(`qq:user:${member}`)).toBeNull();
  });

  it("lets an admin link a group openid to a person, who is then the same person in private", async ({
    expect,
  }) => {
    const seen = captureIdentities();
    const group = uid("G");
    const ownerInGroup = uid("OWNERMEMBER");
    // Identity answers tie accounts to people and chats: the admin manages them in private.
    const adminChat = `qq:private:${ADMIN_MEMBER}`;
    const asAdmin = (text: string) => say(c2cBodyWithIdentity({ user: ADMIN_MEMBER, text }), adminChat);
    const linked = await asAdmin(`/identity link qq:user:${ownerInGroup} owner`);
    expect(linked).toBe(`已将 qq:user:${ownerInGroup} 关联到人物 owner。${PRIVATE_BY_ORIGIN_RULE}`);
    expect(await linkRow(`qq:user:${ownerInGroup}`)).toMatchObject({
      person_id: "owner",
      source: "admin",
      linked_by: `qq:user:${ADMIN_MEMBER}`,
    });

    await say(groupBodyWithIdentity({ group, member: ownerInGroup, text: "我是谁" }), `qq:group:${group}`);
    await say(c2cBodyWithIdentity({ user: OWNER_C2C, text: "我是谁" }), `qq:private:${OWNER_C2C}`);
    expect(seen).toEqual([
      { enabled: true, account: `qq:user:${ownerInGroup}`, personId: "owner", declared: true },
      { enabled: true, account: `qq:user:${OWNER_C2C}`, personId: "owner", declared: true },
    ]);

    // Observations reach D1 with the next outbox flush.
    await eventually(async () => (await observationRows(`qq:user:${ownerInGroup}`)).length > 0);
    const who = await asAdmin(`/identity whois qq:user:${ownerInGroup}`);
    expect(who).toContain("人物：owner “浅色”（管理员关联，已声明）");
    expect(who).toContain(`同一人物的账号：qq:user:${OWNER_C2C}（config）`);
    expect(who).toContain(`出现在 qq:group:${group}`);

    const unlinked = await asAdmin(`/identity unlink qq:user:${ownerInGroup}`);
    expect(unlinked).toContain("已解除");
    const audit = await auditRowsOnceThere(adminChat, undefined, (rows) => rows.length === 3);
    expect(audit.map((r) => [r.action, r.detail.outcome])).toEqual([
      ["identity.link", "ok"],
      ["identity.whois", "ok"],
      ["identity.unlink", "ok"],
    ]);
    expect(audit.every((r) => r.actor === `qq:user:${ADMIN_MEMBER}`)).toBe(true);
  });

  it("links a group member and a private user sharing a union_openid without any admin", async ({
    expect,
  }) => {
    const seen = captureIdentities();
    const union = uid("UNION");
    const group = uid("G");
    const member = uid("M");
    const user = uid("U");
    await say(groupBodyWithIdentity({ group, member, union, text: "你好" }), `qq:group:${group}`);
    await say(c2cBodyWithIdentity({ user, union, text: "你好" }), `qq:private:${user}`);
    expect(seen.map((s) => s?.personId)).toEqual([`qq:union:${union}`, `qq:union:${union}`]);
    expect(await linkRow(`qq:user:${member}`)).toMatchObject({
      person_id: `qq:union:${union}`,
      source: "union",
    });
    expect(await linkRow(`qq:user:${user}`)).toMatchObject({
      person_id: `qq:union:${union}`,
      source: "union",
    });
  });
});
