import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { TurnContext } from "@src/domain/agent/turn-context";
import type { Settings } from "@src/domain/config/settings";
import { describe, it } from "vitest";
import { FakeOtherChatContexts, FakeShortTermContext } from "../../fakes/fake-short-term-context";
import { ADMIN, MEMBER, withIdentity } from "../../fakes/identity-settings";
import { messageEvent } from "../../fakes/inbound";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { TEST_NOW, turnPorts } from "../../fakes/turn-ports";
import { turnContext } from "../../support/turn-context";

const CHAT = "qq:group:G1";
const SIBLING = "onebot:group:200";
const STRANGER = "onebot:group:999";
const settings = withIdentity({ chatDomains: { community: [CHAT, SIBLING] } });

async function manage(sender: string, args: Record<string, unknown>, s: Settings = settings) {
  const event = messageEvent({ chat: CHAT, text: "帮我重置", sender: sender.split(":")[2] ?? sender });
  const ctx: TurnContext = turnContext(event, {
    text: "帮我重置",
    settings: s,
    now: TEST_NOW,
  });
  const session = new FakeShortTermContext(() => TEST_NOW);
  const sessions = new FakeOtherChatContexts(() => TEST_NOW);
  const model = new ScriptedChatModel([
    { toolCalls: [{ id: "c1", name: "session_manage", arguments: JSON.stringify(args) }] },
    { text: "好的" },
  ]);
  const result = await runTurn(
    ctx,
    turnPorts({ model, shortTermContext: session, otherContexts: sessions }),
    defaultTurnRegistry(),
  );
  if (!result.ok) throw new Error("turn failed");
  const answer = model.requests[1]?.messages.find((m) => m.role === "tool")?.content ?? "";
  return { answer, session, sessions, audit: result.value.audit, contextReset: result.value.contextReset };
}

describe("session_manage", () => {
  it.for([
    ["a member", MEMBER, settings, "不在 identity.admins 中"],
    ["anyone while identity is off", ADMIN, withIdentity({ enabled: false }), "身份系统未启用"],
  ] as const)(
    "refuses %s with the gate's reason and resets nothing",
    async ([, sender, s, reason], { expect }) => {
      const { answer, session, sessions, audit } = await manage(sender, { chat: SIBLING }, s);
      expect(answer).toMatch(/^拒绝：session_manage /);
      expect(answer).toContain(reason);
      expect(session.resets).toBe(0);
      expect(sessions.requests).toEqual([]);
      expect(audit).toMatchObject([
        { action: "session_manage", actor: sender, outcome: "refused", detail: { stage: "guard" } },
      ]);
    },
  );

  it("reaches a chat outside the domain for an admin (admins are not bound to a domain)", async ({
    expect,
  }) => {
    const { sessions } = await manage(ADMIN, { chat: STRANGER });
    expect(sessions.requests).toMatchObject([{ chat: STRANGER, req: { actor: ADMIN, from: CHAT } }]);
  });

  it("refuses a target that is not a chat address and resets nothing", async ({ expect }) => {
    const { answer, session, sessions, audit } = await manage(ADMIN, { chat: "G2" });
    expect(answer).toContain("'G2' 不是聊天地址");
    expect(session.resets).toBe(0);
    expect(sessions.requests).toEqual([]);
    expect(audit).toMatchObject([
      { action: "session_manage", outcome: "refused", detail: { stage: "guard" } },
    ]);
  });

  it("resets another chat of the domain through that chat, and audits it", async ({ expect }) => {
    const { answer, session, sessions, audit, contextReset } = await manage(ADMIN, { chat: SIBLING });
    expect(answer).toBe(
      `已清空 ${SIBLING} 的短期上下文（1 条最近的对话）。长期记忆、摘要和聊天记录都保留着。`,
    );
    expect(sessions.requests).toMatchObject([
      { chat: SIBLING, req: { actor: ADMIN, via: "tool", from: CHAT } },
    ]);
    expect(session.resets).toBe(0);
    expect(contextReset).toBe(false);
    expect(audit).toEqual([
      {
        action: "session_manage",
        actor: ADMIN,
        target: SIBLING,
        outcome: "ok",
        detail: { via: "tool", clearedTurns: 1, repeated: false },
        chatKey: CHAT,
        at: TEST_NOW,
      },
    ]);
  });

  it("keeps to the target chat's one reset a minute", async ({ expect }) => {
    const sessions = new FakeOtherChatContexts(() => TEST_NOW);
    await sessions.of(SIBLING).reset({ eventId: "earlier" });
    const event = messageEvent({ chat: CHAT, text: "再重置", sender: "ADMIN_OPENID" });
    const model = new ScriptedChatModel([
      { toolCalls: [{ id: "c1", name: "session_manage", arguments: JSON.stringify({ chat: SIBLING }) }] },
      { text: "好的" },
    ]);
    const ctx: TurnContext = turnContext(event, {
      text: "再重置",
      settings,
      now: TEST_NOW,
    });
    const result = await runTurn(ctx, turnPorts({ model, otherContexts: sessions }), defaultTurnRegistry());
    const answer = model.requests[1]?.messages.find((m) => m.role === "tool")?.content ?? "";
    expect(answer).toBe(`${SIBLING} 刚刚已经重置过了，请 60 秒后再试。长期记忆没有变化。`);
    expect(sessions.of(SIBLING).resets).toBe(1);
    expect(result.ok && result.value.audit).toMatchObject([
      { action: "session_manage", outcome: "refused", detail: { retryAfterSeconds: 60 } },
    ]);
  });

  it.for([
    ["no chat", {}],
    ["the current chat named", { chat: CHAT }],
  ] as const)("with %s resets the current chat like /reset", async ([, args], { expect }) => {
    const { answer, session, sessions, audit, contextReset } = await manage(ADMIN, args);
    expect(answer).toContain("已清空本聊天的短期上下文");
    expect(session.resets).toBe(1);
    expect(sessions.requests).toEqual([]);
    expect(contextReset).toBe(true);
    expect(audit).toMatchObject([{ action: "session_manage", target: CHAT, outcome: "ok" }]);
  });
});
