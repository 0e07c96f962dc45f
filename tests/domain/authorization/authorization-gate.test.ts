import {
  AuthorizationGate,
  gateFor,
  isPrivilegedAction,
  PRIVILEGED_ACTIONS,
} from "@src/domain/authorization/authorization-gate";
import type { ChatKey } from "@src/domain/chat/chat-address";
import { DEFAULT_IDENTITY_SETTINGS, type IdentitySettings } from "@src/domain/config/identity-settings";
import { describe, it } from "vitest";
import { ADMIN, MEMBER, withIdentity } from "../../fakes/identity-settings";

const MAIN = "qq:group:MAIN" as ChatKey;
const TOPIC = "qq:group:TOPIC" as ChatKey;
const ELSEWHERE = "qq:group:ELSEWHERE" as ChatKey;
const LONER = "qq:group:LONER" as ChatKey;

const identity = (overrides: Partial<IdentitySettings> = {}): IdentitySettings =>
  withIdentity({ chatDomains: { community: [MAIN, TOPIC], other: [ELSEWHERE] }, ...overrides }).identity;

/**
 * The gate table (docs/identity.md#the-gate-table), as actions of this system. Gated rows need
 * an admin; the others run for anyone, so that admin status never touches memory.
 */
const GATE_TABLE = [
  { row: "exec (arbitrary shell)", action: "exec", gated: true },
  { row: "cross-chat message", action: "send_message", gated: true },
  { row: "workspace_write", action: "workspace_write", gated: true },
  { row: "admin commands (/identity link …)", action: "identity_manage", gated: true },
  { row: "session management", action: "session_manage", gated: true },
  { row: "knowledge-base management", action: "kb_manage", gated: true },
  { row: "config changes", action: "config_change", gated: true },
  { row: "memory_write", action: "memory_write", gated: false },
  { row: "reads: history_recent", action: "history_recent", gated: false },
  { row: "searches: history_search", action: "history_search", gated: false },
  { row: "searches: memory_search", action: "memory_search", gated: false },
  { row: "searches: kb_search", action: "kb_search", gated: false },
  { row: "attachments", action: "attachment_read", gated: false },
] as const;

describe("the gate table (docs/identity.md#the-gate-table)", () => {
  it.for(GATE_TABLE)("$row: admin allowed, non-admin gated = $gated", ({ action, gated }, { expect }) => {
    const gate = new AuthorizationGate(identity());
    expect(isPrivilegedAction(action)).toBe(gated);
    expect(gate.assertAuthorized(action, ADMIN)).toEqual({ ok: true, value: undefined });
    const member = gate.assertAuthorized(action, MEMBER);
    if (gated) {
      expect(member).toMatchObject({
        ok: false,
        error: { kind: "not-authorized", action, cause: "not-admin" },
      });
      expect(!member.ok && member.error.reason).toContain(`账号 ${MEMBER} 不在 identity.admins 中`);
    } else {
      expect(member).toEqual({ ok: true, value: undefined });
    }
  });

  it("covers every privileged action", ({ expect }) => {
    const gated = GATE_TABLE.filter((r) => r.gated).map((r) => r.action);
    expect([...gated].sort()).toEqual([...PRIVILEGED_ACTIONS].sort());
  });
});

describe("AuthorizationGate", () => {
  it("fails closed when identity is enabled with no admins, and says why", ({ expect }) => {
    const gate = new AuthorizationGate(identity({ admins: [] }));
    for (const action of PRIVILEGED_ACTIONS) {
      for (const account of [ADMIN, MEMBER, null]) {
        const refused = gate.assertAuthorized(action, account);
        expect(refused).toMatchObject({ ok: false, error: { kind: "not-authorized", cause: "no-admins" } });
        expect(!refused.ok && refused.error.reason).toContain("identity.admins 为空");
        expect(!refused.ok && refused.error.reason).toContain("fail closed");
      }
    }
    expect(gate.isAdmin(ADMIN)).toBe(false);
    expect(gate.assertAuthorized("memory_write", MEMBER).ok).toBe(true);
  });

  it("keeps today's behaviour while identity is disabled: unprivileged actions run, chats stay alone", ({
    expect,
  }) => {
    const gate = new AuthorizationGate({ ...identity(), enabled: false });
    expect(gate.assertAuthorized("history_search", MEMBER).ok).toBe(true);
    expect(gate.assertAuthorized("memory_write", null).ok).toBe(true);
    expect(gate.isAdmin(ADMIN)).toBe(false);
    const refused = gate.assertAuthorized("send_message", ADMIN);
    expect(refused).toMatchObject({ ok: false, error: { cause: "identity-disabled" } });
    expect(!refused.ok && refused.error.reason).toContain("identity.enabled = false");
    expect(gate.allowedChatsFor(MAIN)).toEqual([MAIN]);
    expect(gate.assertInChatScope(TOPIC, MAIN, ADMIN)).toMatchObject({ ok: false });
  });

  it("refuses a privileged action without a sender", ({ expect }) => {
    expect(new AuthorizationGate(identity()).assertAuthorized("kb_manage", null)).toMatchObject({
      ok: false,
      error: { cause: "no-sender" },
    });
  });

  it("recognizes admins by account only, expanding person:<id> to the accounts config declares", ({
    expect,
  }) => {
    const gate = new AuthorizationGate(
      identity({
        people: [{ id: "owner", displayName: "O", accounts: ["onebot:user:10001", "qq:user:OWNER"] }],
        admins: ["person:owner"],
      }),
    );
    expect(gate.isAdmin("onebot:user:10001")).toBe(true);
    expect(gate.isAdmin("qq:user:OWNER")).toBe(true);
    expect(gate.isAdmin(ADMIN)).toBe(false);
    expect(gate.isAdmin(null)).toBe(false);
  });

  it("computes allowed chats: the domain with the current chat first; a chat in no domain alone", ({
    expect,
  }) => {
    const gate = new AuthorizationGate(identity());
    expect(gate.allowedChatsFor(TOPIC)).toEqual([TOPIC, MAIN]);
    expect(gate.allowedChatsFor(MAIN)).toEqual([MAIN, TOPIC]);
    expect(gate.allowedChatsFor(LONER)).toEqual([LONER]);
    expect(gate.reachFor(MAIN, MEMBER)).toEqual({ all: false, chats: [MAIN, TOPIC] });
    expect(gate.reachFor(MAIN, ADMIN)).toEqual({ all: true });
  });

  it("lets a non-admin target chats inside the domain only; admins anywhere", ({ expect }) => {
    const gate = new AuthorizationGate(identity());
    expect(gate.assertInChatScope(TOPIC, MAIN, MEMBER)).toEqual({ ok: true, value: TOPIC });
    expect(gate.assertInChatScope(MAIN, MAIN, MEMBER)).toEqual({ ok: true, value: MAIN });
    // A lane of a chat is that chat.
    expect(gate.assertInChatScope(`${TOPIC}:cron:daily`, MAIN, MEMBER)).toEqual({ ok: true, value: TOPIC });
    const outside = gate.assertInChatScope(ELSEWHERE, MAIN, MEMBER);
    expect(outside).toMatchObject({
      ok: false,
      error: { kind: "not-in-chat-scope", target: ELSEWHERE, chat: MAIN, domain: "community" },
    });
    expect(!outside.ok && outside.error.reason).toContain("不在当前聊天所在的聊天域 'community' 内");
    const alone = gate.assertInChatScope(MAIN, LONER, MEMBER);
    expect(!alone.ok && alone.error.reason).toContain("不属于任何聊天域");
    expect(gate.assertInChatScope(ELSEWHERE, MAIN, ADMIN)).toEqual({ ok: true, value: ELSEWHERE });
    expect(gate.assertInChatScope("qq:ELSEWHERE", MAIN, ADMIN)).toMatchObject({ ok: false });
  });

  it("is built once per settings object", ({ expect }) => {
    const settings = identity();
    expect(gateFor(settings)).toBe(gateFor(settings));
    expect(gateFor(DEFAULT_IDENTITY_SETTINGS).isAdmin(ADMIN)).toBe(false);
  });
});
